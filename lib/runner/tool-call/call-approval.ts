import { standardFailure } from '../../outcome/tool-outcome';
import { callHook } from './call-hook';
import { Gate, PASS, refuse } from './call-gates';
import { MaybePromise } from '../maybe-promise';
import { ToolApprovalDecision, ToolCallRequest } from '../run-options';
import { needsApproval } from '../runner-rules';
import { RunInProgress } from '../run-state';
import { StepContext } from './step-context';

/** The `requestApproval` step as `LlmAgentRunner` defines it (documented there). */
export function requestApprovalGate(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
): MaybePromise<Gate<void>> {
  if (!needsApproval(request.descriptor)) return PASS;
  return decideApproval(steps, run, request);
}

/**
 * The approval decision of a call that needs one: stored, from the handler, or suspended. A
 * throwing or rejecting handler denies (fail closed); an abort while it is pending is `cancelled`.
 */
async function decideApproval(steps: StepContext, run: RunInProgress, request: ToolCallRequest): Promise<Gate<void>> {
  const base = { runId: run.runId, callId: request.callId, turn: request.turn, toolName: request.toolName };
  const handler = run.options.approvalHandler;
  const stored = await run.recorder?.approvalOf(request);
  let decision: ToolApprovalDecision;
  if (stored !== undefined && stored.state !== 'pending') {
    decision =
      stored.state === 'approved'
        ? { approved: true, reason: 'stored approval' }
        : { approved: false, reason: stored.reason };
  } else {
    steps.emit(run, { type: 'approval_requested', ...base, arguments: request.arguments });
    if (handler === undefined && run.recorder !== undefined) return { kind: 'suspend' };
    if (handler === undefined) decision = { approved: false, reason: 'no approval handler is configured' };
    else {
      const answer = await callHook(() => handler(request), run.options.signal);
      if (answer.kind === 'aborted')
        return refuse(standardFailure('cancelled', 'the run was aborted while the call waited for approval'));
      const read = answer.kind === 'value' ? approvalDecisionOf(answer.value) : undefined;
      if (read === undefined)
        steps.hookFailed(
          run,
          request,
          'approvalHandler',
          answer.kind === 'failed'
            ? answer.error
            : new TypeError('the approval handler returned no { approved: boolean } decision'),
        );
      decision = read ?? { approved: false, reason: 'the approval handler failed' };
    }
    await run.recorder?.recordDecision(request, decision);
  }
  steps.emit(run, { type: 'approval_decided', ...base, approved: decision.approved, reason: decision.reason });
  if (decision.approved) return PASS;
  return refuse(
    standardFailure(
      'approval_denied',
      `the call to '${request.toolName}' was not approved${decision.reason ? `: ${decision.reason}` : ''}`,
    ),
  );
}

/**
 * A handler's answer as a decision, each field read once into a copy (what is checked is what is recorded and
 * obeyed): an object with a boolean `approved`, a text `reason` and `decidedBy` when present; undefined for anything
 * else, a getter that throws included (the call is then denied).
 */
function approvalDecisionOf(value: unknown): ToolApprovalDecision | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const { approved, reason, decidedBy } = value as Record<string, unknown>;
    if (typeof approved !== 'boolean') return undefined;
    if (reason !== undefined && typeof reason !== 'string') return undefined;
    if (decidedBy !== undefined && typeof decidedBy !== 'string') return undefined;
    return {
      approved,
      ...(reason === undefined ? {} : { reason }),
      ...(decidedBy === undefined ? {} : { decidedBy }),
    };
  } catch {
    return undefined;
  }
}
