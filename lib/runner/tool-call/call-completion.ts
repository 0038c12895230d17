import { ModelToolCall } from '../../model/model-types';
import { JsonObject } from '../../outcome/json-value';
import { renderToolMessage } from '../../outcome/render-tool-message';
import { isToolOutcome, standardFailure, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { formatIssues } from '../../tools/tool-argument-error';
import { compileOutputValidator } from '../../validation/schema-validator';
import { callHook, HookResult } from './call-hook';
import { isPromiseLike, MaybePromise } from '../maybe-promise';
import { LlmAgentRunOptions, ToolCallRequest } from '../run-options';
import { ToolCallResult } from '../run-result';
import { withResourceVersion } from '../runner-rules';
import { RunInProgress } from '../run-state';
import { CompletedCall } from './call-types';
import { StepContext } from './step-context';

export type { CompletedCall, ModelProjection } from './call-types';

/** The `finishOutcome` step as `LlmAgentRunner` defines it (documented there). */
export function finishOutcome(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  outcome: ToolOutcome,
): MaybePromise<ToolOutcome> {
  const prepare = run.options.prepareToolResult;
  if (prepare === undefined)
    return withResourceVersion(steps.validateOutput(run, request, outcome), request.descriptor);
  return prepareThenValidate(steps, run, request, outcome, prepare);
}

/** {@link finishOutcome} with a `prepareToolResult` hook. */
function prepareThenValidate(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  outcome: ToolOutcome,
  prepare: NonNullable<LlmAgentRunOptions['prepareToolResult']>,
): MaybePromise<ToolOutcome> {
  const validate = (prepared: ToolOutcome): ToolOutcome =>
    withResourceVersion(steps.validateOutput(run, request, prepared), request.descriptor);
  const validateAnswer = (answer: HookResult<ToolOutcome>): ToolOutcome => {
    if (answer.kind === 'value' && isToolOutcome(answer.value)) return validate(answer.value);
    if (answer.kind === 'aborted')
      return standardFailure(
        'cancelled',
        `the run was aborted while prepareToolResult worked on the outcome of '${request.toolName}'; the tool ran, so do not assume it had no effect`,
      );
    const error =
      answer.kind === 'failed'
        ? answer.error
        : new TypeError(
            `prepareToolResult returned ${answer.kind === 'value' ? typeof answer.value : 'nothing'}, not a tool outcome`,
          );
    steps.hookFailed(run, request, 'prepareToolResult', error);
    const message = `'${request.toolName}' ran, but prepareToolResult failed on its outcome, so the outcome was withheld; do not assume it had no effect`;
    return toolFailure({ code: 'tool_error', category: 'internal', retryable: false, message });
  };
  const answer = callHook(() => prepare(outcome, request), run.options.signal);
  return isPromiseLike(answer) ? answer.then(validateAnswer) : validateAnswer(answer);
}

/** The `validateOutput` step as `LlmAgentRunner` defines it (documented there). */
export function validateOutput(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  outcome: ToolOutcome,
): ToolOutcome {
  const { outputSchema, outputValidation } = request.descriptor;
  if (!outcome.ok || outputSchema === undefined || outputValidation === 'disabled') return outcome;
  const issues =
    outcome.data === undefined
      ? [{ pointer: '', message: 'the tool returned no structured data', keyword: 'type' }]
      : compileOutputValidator(outputSchema)(outcome.data);
  if (issues.length === 0) return outcome;
  const plainIssues = issues.map((issue) => ({
    pointer: issue.pointer,
    message: issue.message,
    keyword: issue.keyword,
  }));
  if (outputValidation === 'strict')
    return toolFailure({
      code: 'output_validation',
      category: 'validation',
      retryable: false,
      message: `the output of '${request.toolName}' does not match its output schema: ${formatIssues(issues)}`,
      details: { issues: plainIssues },
    });
  steps.emit(run, {
    type: 'output_validation_warning',
    runId: run.runId,
    callId: request.callId,
    turn: request.turn,
    toolName: request.toolName,
    issues: plainIssues,
  });
  return { ...outcome, metadata: { ...outcome.metadata, outputValidationIssues: plainIssues } };
}

/** The `completeToolCall` step as `LlmAgentRunner` defines it (documented there). */
export function completeToolCall(
  steps: StepContext,
  run: RunInProgress,
  call: ModelToolCall,
  result: CompletedCall,
): MaybePromise<ToolCallResult> {
  const { request } = result;
  const admits = result.refused !== true && run.recorder !== undefined;
  if (request !== undefined && (admits || run.options.onToolResult !== undefined))
    return completeObserved(steps, run, call, result, request, admits);
  return toolCallResult(steps, run, call, result);
}

/** {@link completeToolCall} for a call that is admitted or observed. */
async function completeObserved(
  steps: StepContext,
  run: RunInProgress,
  call: ModelToolCall,
  result: CompletedCall,
  request: ToolCallRequest,
  admits: boolean,
): Promise<ToolCallResult> {
  if (admits && result.admitted !== true) await run.recorder?.admit(call.id, run.turn, result.outcome, result.attempts);
  const observe = run.options.onToolResult;
  if (observe !== undefined) {
    const observed = await callHook(() => observe(result.outcome, request), run.options.signal);
    if (observed.kind === 'failed') steps.hookFailed(run, request, 'onToolResult', observed.error);
  }
  return toolCallResult(steps, run, call, result, admits);
}

/**
 * Projects the call's outcome for the model (through the pipeline's `projectForModel`), reports the finished call
 * with that projected content, and builds the result.
 */
export function toolCallResult(
  steps: StepContext,
  run: RunInProgress,
  call: ModelToolCall,
  result: CompletedCall,
  admitted = false,
): ToolCallResult {
  const { outcome, attempts } = result;
  const durationMs = run.clock.now() - result.startedAt;
  // Projected first, so the event carries the Tool message the model reads (a tool guardrail's refusal, when its
  // `after` check rejected the outcome).
  const { content, report, parts } = steps.projectForModel(run, call, result.modelOutcome ?? outcome);
  steps.emit(run, {
    type: 'tool_call_finished',
    runId: run.runId,
    callId: call.id,
    turn: run.turn,
    toolName: call.name,
    outcome,
    content,
    attempts,
    durationMs,
  });
  const toolCall: ToolCallResult = {
    callId: call.id,
    turn: run.turn,
    toolName: call.name,
    rawArguments: call.arguments,
    arguments: result.args,
    outcome,
    attempts,
    idempotencyKey: result.idempotencyKey,
    content,
    projection: report,
    durationMs,
  };
  if (admitted) Object.assign(toolCall, { admitted: true });
  if (result.modelOutcome !== undefined) Object.assign(toolCall, { modelOutcome: result.modelOutcome });
  if (parts !== undefined) Object.assign(toolCall, { parts });
  return toolCall;
}

/** A call that waits for a stored approval decision: no result for the model yet, the run suspends. */
export function suspendedToolCall(
  run: RunInProgress,
  call: ModelToolCall,
  result: { idempotencyKey: string; args?: JsonObject; startedAt: number },
): ToolCallResult {
  const outcome = toolFailure({
    code: 'approval_pending',
    category: 'permission',
    retryable: false,
    message: `'${call.name}' waits for an approval decision`,
  });
  return {
    callId: call.id,
    turn: run.turn,
    toolName: call.name,
    rawArguments: call.arguments,
    arguments: result.args,
    outcome,
    attempts: 0,
    idempotencyKey: result.idempotencyKey,
    content: renderToolMessage(outcome),
    durationMs: run.clock.now() - result.startedAt,
    awaitingApproval: true,
  };
}
