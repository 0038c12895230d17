import { mergeOwn } from '../outcome/merge-own';
import { setMaxListeners } from 'node:events';
import { keyBudgetReport } from './run-control/budget/key-budget';
import { ChatMessage, ModelRequest, ModelResponse, ModelResponseFormat } from '../model/model-types';
import { LlmTool } from '../contract/llm-tool';
import { LlmAgentError } from './runner-error';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunInProgress } from './run-state';
import { SYSTEM_CLOCK } from './runner-clock';
import { checkRunLimits } from './runner-rules';
import { AbortGrace, DEFAULT_ABORTED_WRITE_GRACE_MS } from './durable/abort-grace';
import { RunRecorder } from './durable/run-recorder';
import { newRunId } from './new-run-id';
import { FinalAnswerState } from './structured-output/final-answer';
import { requestMessagesOf } from './handoff/handoff-run';

/**
 * The state of a new run from its merged options; throws `invalid_run_options` for a limit that cannot work. @internal
 */
export function newRunInProgress(merged: LlmAgentRunOptions, output?: FinalAnswerState): RunInProgress {
  checkRunLimits(merged);
  const options = merged.signal === undefined ? merged : mergeOwn(merged, { signal: runSignalOf(merged.signal) });
  const runId = options.runId ?? newRunId();
  return {
    runId,
    options,
    recorder:
      options.store === undefined ? undefined : new RunRecorder(options.store, runId, abortGraceOf(options, runId)),
    clock: options.clock ?? SYSTEM_CLOCK,
    messages: [],
    toolCalls: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    steps: 0,
    turn: 1,
    text: '',
    stopReason: undefined,
    output,
  };
}

/**
 * The run's own signal, aborted with the host's: every running attempt and store write of the run listens on it, so a
 * turn of many parallel calls adds one listener to the host's signal, not one per call (which would make Node warn of
 * a listener leak on the host's signal past ten).
 */
function runSignalOf(host: AbortSignal): AbortSignal {
  const signal = AbortSignal.any([host]);
  setMaxListeners(0, signal);
  return signal;
}

/** The bound on a run's store operations once its signal aborts (`abortedWriteGraceMs`). */
function abortGraceOf(options: LlmAgentRunOptions, runId: string): AbortGrace | undefined {
  const signal = options.signal;
  if (signal === undefined) return undefined;
  const graceMs = options.abortedWriteGraceMs ?? DEFAULT_ABORTED_WRITE_GRACE_MS;
  return new AbortGrace(
    signal,
    graceMs,
    options.clock ?? SYSTEM_CLOCK,
    () =>
      new LlmAgentError(
        'store_write_abandoned',
        `run '${runId}' was aborted and its store did not answer within ${graceMs} ms; the runner stopped waiting (the write may still land, ` +
          'fenced by the lease). Resume the run as after a crash.',
        { cause: signal.reason },
      ),
  );
}

/**
 * The request of the run's next model step: the whole conversation so far (as the holding handoff's `inputFilter`
 * lets it through), the tools, the run's signal and, in native mode, the response format. @internal
 */
export function modelRequestOf(
  run: RunInProgress,
  tools: readonly LlmTool[],
  format: ModelResponseFormat | undefined,
): ModelRequest {
  const request: ModelRequest = {
    system: run.options.system,
    messages: requestMessagesOf(run),
    tools,
    signal: run.options.signal ?? NEVER_ABORTED,
  };
  return format === undefined ? request : mergeOwn(request, { responseFormat: format });
}

/** The signal of runs without one: never aborts. */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Adds a response's token usage to the run's. @internal */
export function countUsage(run: RunInProgress, response: ModelResponse): void {
  run.usage = {
    inputTokens: run.usage.inputTokens + response.usage.inputTokens,
    outputTokens: run.usage.outputTokens + response.usage.outputTokens,
  };
}

/** The Tool message of a call's result: its content, and its images when it has any. @internal */
export function toolMessageOf(record: ToolCallResult): ChatMessage {
  const isError = !(record.modelOutcome ?? record.outcome).ok || record.projection === undefined;
  const message: ChatMessage = {
    role: 'tool',
    toolCallId: record.callId,
    toolName: record.toolName,
    content: record.content,
    isError,
  };
  return record.parts === undefined || record.parts.length === 0 ? message : mergeOwn(message, { parts: record.parts });
}

/** The result of a finished run; with `accepted`, the final answer of a run with `output`. @internal */
export function runResultOf(
  run: RunInProgress,
  stopReason: LlmAgentStopReason,
  accepted: { readonly value: unknown } | undefined,
): LlmAgentRunResult {
  const { runId, text, messages, toolCalls, usage, steps } = run;
  const ledger = run.control?.ledger;
  const keyBudget = run.control?.keyBudget && keyBudgetReport(run.control.keyBudget, run.control.exhausted);
  const result: LlmAgentRunResult = {
    runId,
    text,
    messages,
    toolCalls,
    usage,
    stopReason,
    steps,
    ...(ledger === undefined ? {} : { budget: ledger.report(run.clock.now()) }),
    ...(run.control?.guardrails.stop === undefined ? {} : { guardrail: run.control.guardrails.stop }),
    ...(keyBudget === undefined ? {} : { keyBudget }),
  };
  return accepted === undefined ? result : mergeOwn(result, { output: accepted.value });
}
