import { callKey } from '../../durable/rules/value-rules';
import type { ToolDescriptor } from '../../contract/tool-descriptor';
import type { ModelToolCall } from '../../model/model-types';
import { standardFailure } from '../../outcome/tool-outcome';
import type { ToolCallRequest } from '../run-options';
import type { RunInProgress } from '../run-state';
import { Gate, refuse, resolveToolGate } from '../tool-call/call-gates';
import type { StepContext } from '../tool-call/step-context';
import { budgetOf, exhaust, TrippedLimit } from './budget/budget-stop';
import { callReservationId } from './budget/key-budget';

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
 * already reached), and so must its budget key (one call reserved against the key, atomically). A refused call gets
 * a `budget_exhausted` failure (nothing runs) and the run stops with stop reason `budget_exhausted` once the turn's
 * results are recorded. A call counted before (a resumed one) passes without counting twice. @internal
 */
export async function budgetToolCallGate(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
): Promise<Gate<void>> {
  const { ledger, keyBudget } = run.control ?? {};
  const counted = callKey(request.turn, request.callId);
  const countedBefore = ledger?.countedCalls.has(counted) === true;
  if (ledger !== undefined) {
    const limit = ledger.reserveToolCall(counted, run.clock.now());
    if (limit !== undefined) return refuseCall(steps, run, request, { limit, at: 'tool_call' });
  }
  if (keyBudget !== undefined) {
    const answer = await keyBudget.store.reserveKeyBudget(keyBudget.key, {
      runId: run.runId,
      reservationId: callReservationId(request.turn, request.callId),
      kind: 'tool_call',
    });
    keyBudget.state = answer.state;
    // A call the key refuses does not run: the run's budget does not count it either.
    if (!answer.granted && !countedBefore) ledger?.countedCalls.delete(counted);
    if (!answer.granted)
      return refuseCall(steps, run, request, {
        limit: answer.limit,
        key: keyBudget.key,
        max: answer.max,
        at: 'tool_call',
      });
  }
  return { kind: 'continue', value: undefined };
}

function refuseCall(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  tripped: TrippedLimit,
): Gate<void> {
  const exhaustion = exhaust(steps, run, tripped);
  run.stopReason = 'budget_exhausted';
  return refuse(
    standardFailure(
      'budget_exhausted',
      `${budgetOf(exhaustion)} is exhausted (${exhaustion.limit} ${exhaustion.max}); '${request.toolName}' was not run`,
      {
        limit: exhaustion.limit,
        max: exhaustion.max,
        ...(exhaustion.key === undefined ? {} : { key: exhaustion.key }),
      },
    ),
  );
}
