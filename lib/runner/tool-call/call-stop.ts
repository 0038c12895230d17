import { messageOf } from '../../errors/message-of';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolCallRequest } from '../run-options';
import { ToolCallResult } from '../run-result';
import { RunInProgress } from '../run-state';
import { LlmAgentEvent, LlmAgentHookName } from '../runner-events';
import { suspendedToolCall, toolCallResult } from './call-completion';
import { GateStop } from './call-gates';
import { CallStart } from './call-types';
import { StepContext } from './step-context';

/**
 * A call a gate stopped: suspended for a stored decision, or refused (reported, then completed through the runner's
 * `completeToolCall` with the gate's failure). @internal
 */
export async function stopToolCall(
  steps: StepContext,
  run: RunInProgress,
  start: CallStart,
  gate: GateStop,
  request?: ToolCallRequest,
): Promise<ToolCallResult> {
  const { call, idempotencyKey, startedAt } = start;
  const args = request?.arguments;
  if (gate.kind === 'suspend') return suspendedToolCall(run, call, { idempotencyKey, args, startedAt });
  steps.emit(run, refusedEvent(run, start, gate.outcome));
  const refused = { outcome: gate.outcome, attempts: 0, idempotencyKey, startedAt, args, request, refused: true };
  return await steps.completeToolCall(run, call, refused);
}

/** The `refuseToolCall` step as `LlmAgentRunner` defines it (documented there). @internal */
export function refusedToolCall(
  steps: StepContext,
  run: RunInProgress,
  start: CallStart,
  outcome: ToolOutcome,
): ToolCallResult {
  steps.emit(run, refusedEvent(run, start, outcome));
  const { idempotencyKey, startedAt } = start;
  return toolCallResult(steps, run, start.call, { outcome, attempts: 0, idempotencyKey, startedAt });
}

function refusedEvent(run: RunInProgress, start: CallStart, outcome: ToolOutcome): LlmAgentEvent {
  const { call } = start;
  return { type: 'tool_call_refused', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, outcome };
}

/** The `hook_failed` event of a host hook that threw or rejected. @internal */
export function hookFailedEvent(
  run: RunInProgress,
  call: { readonly callId: string; readonly turn: number; readonly toolName: string },
  hook: LlmAgentHookName,
  error: unknown,
): LlmAgentEvent {
  const { callId, turn, toolName } = call;
  return { type: 'hook_failed', runId: run.runId, callId, turn, toolName, hook, message: messageOf(error) };
}
