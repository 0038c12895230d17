import { LlmTool } from '../contract/llm-tool';
import { Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { ChatMessage, ModelResponse, ModelToolCall } from '../model/model-types';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { isPromiseLike, untilAborted } from './maybe-promise';
import { countUsage, modelRequestOf, toolMessageOf } from './run-lifecycle';
import { LlmAgentRunOptions } from './run-options';
import { ToolCallResult } from './run-result';
import { RunInProgress } from './run-state';
import { LlmAgentEvent } from './runner-events';
import { stopReasonOf } from './runner-rules';
import { streamModelStep } from './stream/stream-model-step';
import { executeWithFinalAnswers } from './structured-output/final-answer';
import { finalAnswerResult } from './structured-output/final-answer-result';
import { StepContext } from './tool-call/step-context';
import { runTurnCalls } from './tool-call/turn-calls';
import { assistantMessageOf, assistantMessagesOf } from './turn-messages';
import { BudgetStop } from './run-control/budget/budget-stop';
import { recordsUsage } from './run-control/budget/resumed-budget';
import { controlModelRequest, releaseModelRequest, settleModelRequest } from './run-control/prepare-request';
import { requestUnderInputGuardrails } from './run-control/guardrails/input-guardrails';

/** Default most model requests in one run. */
export const DEFAULT_MAX_STEPS = 16;

/** The `emit` step as `LlmAgentRunner` defines it (documented there). @internal */
export function emitTo(handler: LlmAgentRunOptions['onEvent'], event: LlmAgentEvent): void {
  if (handler === undefined) return;
  try {
    const answered: unknown = handler(event);
    if (isPromiseLike(answered)) answered.then(undefined, () => undefined);
  } catch {
    // Observers must not change what runs.
  }
}

/** The `runStep` step as `LlmAgentRunner` defines it (documented there). @internal */
export async function runModelStep(steps: StepContext, run: RunInProgress): Promise<void> {
  let response: ModelResponse | undefined;
  try {
    // The first request runs beside the parallel input guardrails; undefined when they stopped the run.
    response = await requestUnderInputGuardrails(steps, run);
    if (response === undefined) return;
  } catch (error) {
    if (BudgetStop.isInstance(error)) {
      run.stopReason = 'budget_exhausted';
      return;
    }
    if (!run.options.signal?.aborted) throw error;
    run.stopReason = 'aborted';
    return;
  }
  await steps.recordMessage(run, assistantMessageOf(response, recordsUsage(run)));
  // The calls of this answer belong to its turn, the ordinal of its assistant message in the whole record.
  run.turn = assistantMessagesOf(run.messages);
  run.text = response.text;
  if (response.toolCalls.length === 0) {
    if (response.stopReason !== 'pause_turn') run.stopReason = stopReasonOf(response);
    return;
  }
  const calls = response.toolCalls;
  const records =
    response.stopReason === 'max_tokens'
      ? steps.refuseIncompleteToolCalls(run, calls)
      : await executeToolCalls(steps, run, calls);
  await recordToolResults(steps, run, records);
}

/** The `requestModel` step as `LlmAgentRunner` defines it (documented there). @internal */
export async function requestModelStep(
  steps: StepContext,
  run: RunInProgress,
  model: ModelStepper,
  llmTools: readonly LlmTool[],
): Promise<ModelResponse> {
  const { output, stream } = run;
  const tools = output === undefined || output.native !== undefined ? llmTools : [...llmTools, output.compiled.tool];
  // Tool control and the budget's reservation (a `BudgetStop` when the budget does not allow the request).
  const request = await controlModelRequest(steps, run, model, modelRequestOf(run, tools, output?.native));
  run.steps++;
  steps.emit(run, { type: 'model_requested', runId: run.runId, step: run.steps });
  const step = run.steps;
  // A streamed step's calls get the turn of the assistant message it is about to add.
  const turn = assistantMessagesOf(run.messages) + 1;
  const responding =
    stream === undefined
      ? model.step(request)
      : streamModelStep(model, request, (event) => stream.modelEvent(step, turn, event));
  // Raced against the signal: a client that ignores it must not keep the run waiting after an abort.
  let response: ModelResponse;
  try {
    response = await untilAborted(responding, run.options.signal);
  } catch (error) {
    await releaseModelRequest(run).catch(() => undefined);
    throw error;
  }
  await settleModelRequest(run, response);
  countUsage(run, response);
  steps.emit(run, { type: 'model_responded', runId: run.runId, step: run.steps, response });
  return response;
}

/** The `recordMessage` step as `LlmAgentRunner` defines it (documented there). @internal */
export async function recordMessageIn(
  run: RunInProgress,
  message: ChatMessage,
  projection: ToolOutputProjectionReport | undefined,
  memory: Memory,
): Promise<void> {
  run.messages.push(message);
  if (run.recorder !== undefined)
    await run.recorder.appendMessage(
      message,
      projection === undefined ? undefined : { turn: run.turn, report: projection },
    );
  await memory.append(run.runId, message);
}

/**
 * Runs the calls of one turn (`run.turn`) concurrently (see `runTurnCalls`); they join the run's calls in call
 * order. In a run with `output` (not in native mode), the final-answer calls are judged, never dispatched. @internal
 */
export async function executeToolCalls(
  steps: StepContext,
  run: RunInProgress,
  calls: readonly ModelToolCall[],
): Promise<ToolCallResult[]> {
  const runCalls = async (some: readonly ModelToolCall[]): Promise<ToolCallResult[]> => {
    const results = await runTurnCalls(
      some,
      (call) => steps.executeToolCall(run, call),
      (call, outcome) => steps.refuseToolCall(run, call, outcome),
    );
    run.toolCalls.push(...results);
    return results;
  };
  const { output } = run;
  if (
    output === undefined ||
    output.native !== undefined ||
    !calls.some((call) => call.name === output.compiled.tool.name)
  )
    return await runCalls(calls);
  const records = await executeWithFinalAnswers(output, calls, {
    executeOthers: runCalls,
    finalResult: (call, outcome) => finalAnswerResult(steps, run, call, outcome),
  });
  if (output.accepted !== undefined) run.stopReason = 'end_turn';
  return records;
}

/**
 * Appends the Tool messages of a turn, in call order; in a durable run each admitted call's projection audit is
 * stored in the same transaction as its message, so the audit describes exactly the content the model gets.
 * When a call waits for a stored approval the turn is left open and the run suspends (`awaiting_approval`);
 * completed calls stay admitted, and their projection is audited when the turn is answered after the resume.
 * @internal
 */
export async function recordToolResults(
  steps: StepContext,
  run: RunInProgress,
  records: readonly ToolCallResult[],
): Promise<void> {
  // A tripped run never resumes, so a call waiting for approval is answered now and the transcript stays whole.
  if (records.some((record) => record.awaitingApproval === true) && run.stopReason !== 'guardrail_tripped') {
    run.stopReason = 'awaiting_approval';
    return;
  }
  for (const record of records)
    await steps.recordMessage(run, toolMessageOf(record), record.admitted === true ? record.projection : undefined);
}
