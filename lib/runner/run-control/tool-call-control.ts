import { callKey } from '../../durable/rules/value-rules';
import type { ToolDescriptor } from '../../contract/tool-descriptor';
import type { ModelToolCall } from '../../model/model-types';
import { standardFailure } from '../../outcome/tool-outcome';
import type { ToolCallRequest } from '../run-options';
import type { RunInProgress } from '../run-state';
import { Gate, refuse, resolveToolGate } from '../tool-call/call-gates';
import type { StepContext } from '../tool-call/step-context';
import { exhaust } from './budget/budget-stop';

/**
 * Step 1 under run control: the tool must exist (`unknown_tool`) and be active in the step that asked for it
 * (`tool_not_active`: the model called a tool this step did not offer; nothing runs). @internal
 */
export function resolveActiveToolGate(
  run: RunInProgress,
  descriptors: ReadonlyMap<string, ToolDescriptor>,
  call: ModelToolCall,
): Gate<ToolDescriptor> {
  const resolved = resolveToolGate(descriptors, call);
  const active = run.control?.activeTools;
  if (resolved.kind !== 'continue' || active === undefined || active.has(call.name)) return resolved;
  return refuse(
    standardFailure(
      'tool_not_active',
      `tool '${call.name}' is not active in this step; active tools: ${[...active].join(', ') || 'none'}`,
    ),
  );
}

/**
 * Step 6b: the run's budget must allow one more tool call (`maxToolCalls`, and no token, cost or wall-time limit
 * already reached). A refused call gets a `budget_exhausted` failure (nothing runs) and the run stops with stop
 * reason `budget_exhausted` once the turn's results are recorded. A call counted before (a resumed one) passes
 * without counting twice. @internal
 */
export function budgetToolCallGate(steps: StepContext, run: RunInProgress, request: ToolCallRequest): Gate<void> {
  const ledger = run.control?.ledger;
  if (ledger === undefined) return { kind: 'continue', value: undefined };
  const limit = ledger.reserveToolCall(callKey(request.turn, request.callId), run.clock.now());
  if (limit === undefined) return { kind: 'continue', value: undefined };
  const exhaustion = exhaust(steps, run, limit, 'tool_call');
  run.stopReason = 'budget_exhausted';
  return refuse(
    standardFailure(
      'budget_exhausted',
      `the run's budget is exhausted (${exhaustion.limit} ${exhaustion.max}); '${request.toolName}' was not run`,
      { limit: exhaustion.limit, max: exhaustion.max },
    ),
  );
}
