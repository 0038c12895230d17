import type { AgentRunRecord } from '../../durable/agent-run-record';
import { callKey } from '../../durable/rules/value-rules';
import { standardFailure } from '../../outcome/tool-outcome';
import type { ToolCallRequest } from '../run-options';
import type { RunInProgress } from '../run-state';
import { Gate, PASS, refuse } from '../tool-call/call-gates';

/**
 * The calls let through to dispatch, by tool name, each once by its turn and call id: what the contracts'
 * `maxCalls` count. A resumed run starts from the calls its record holds (started or admitted). @internal
 */
export type ToolCallCounts = Map<string, Set<string>>;

/**
 * The contract's `maxCalls`: a call over it is refused `max_calls_reached` (nothing runs; the run goes on, so the
 * model can do without the tool). A call counted before (a resumed or retried one) passes without counting twice.
 * @internal
 */
export function toolCallLimitGate(run: RunInProgress, request: ToolCallRequest): Gate<void> {
  const maxCalls = request.descriptor.maxCalls;
  const counts = run.control?.toolCallCounts;
  if (maxCalls === undefined || counts === undefined) return PASS;
  const key = callKey(request.turn, request.callId);
  const counted = counts.get(request.toolName) ?? new Set<string>();
  if (counted.has(key)) return PASS;
  if (counted.size >= maxCalls)
    return refuse(
      standardFailure(
        'max_calls_reached',
        `'${request.toolName}' may be called at most ${maxCalls} time(s) in one run; this call was not run`,
        { maxCalls },
      ),
    );
  counted.add(key);
  counts.set(request.toolName, counted);
  return PASS;
}

/** Counts the calls of a resumed run's record, by tool name. @internal */
export function restoreToolCallCounts(run: RunInProgress, record: AgentRunRecord | undefined): void {
  const counts = run.control?.toolCallCounts;
  if (counts === undefined || record === undefined) return;
  for (const call of record.toolCalls) {
    const counted = counts.get(call.toolName) ?? new Set<string>();
    counted.add(callKey(call.turn, call.callId));
    counts.set(call.toolName, counted);
  }
}
