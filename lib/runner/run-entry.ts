import { messageOf } from '../errors/message-of';
import { mergeOwn } from '../outcome/merge-own';
import { AgentRunRecord } from '../durable/agent-run-record';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { InMemoryMemory, Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { ChatMessage, ModelToolCall } from '../model/model-types';
import { lastTurnOf, leaseOf, restoreRecord, runUnderLease } from './durable/durable-run';
import { newRunInProgress } from './run-lifecycle';
import { loadContinuedConversation } from './run-input';
import { InvokeToolCallOptions, LlmAgentRunOptions } from './run-options';
import { LlmAgentRunResult, ToolCallResult } from './run-result';
import { RunInProgress } from './run-state';
import { LlmAgentError } from './runner-error';
import { DEFAULT_MAX_STEPS, executeToolCalls, recordToolResults } from './run-steps';
import { openRunStream } from './stream/open-run-stream';
import { LlmAgentRunStream } from './stream/stream-events';
import { keptStreamOf } from './stream/keep-run-events';
import { askForFinalAnswer, FinalAnswerState } from './structured-output/final-answer';
import { endedWithNativeAnswer, judgeNativeAnswer } from './structured-output/native-answer';
import { restoreFinalAnswer } from './structured-output/resumed-final-answer';
import { finalAnswerStateOf } from './structured-output/run-output';
import { notExecutedOutcome, openInputCalls } from './tool-call/caller-calls';
import { checkProjectionPolicies } from './tool-call/model-projection';
import { StepContext } from './tool-call/step-context';
import { assistantMessagesOf, isModelResponse } from './turn-messages';
import { newRunControl } from './run-control/run-control';
import { restoreBudget } from './run-control/budget/resumed-budget';
import { stopConditionHolds } from './run-control/stop-conditions';
import { restoreToolCallCounts } from './run-control/tool-call-limit';
import { endedByGuardrail, resumedGuardrailStop } from './run-control/guardrails/guardrail-stop';
import { guardInput } from './run-control/guardrails/input-guardrails';
import { outputGuardrailFeedback } from './run-control/guardrails/output-guardrails';
import {
  activeSteps,
  applyTurnHandoff,
  entryAgentMetadata,
  forgetHandoffMemories,
  restoreHandoff,
} from './handoff/handoff-run';

/** What a run takes from its runner besides the steps. @internal */
export interface RunnerParts {
  readonly model: ModelStepper;
  readonly defaults: LlmAgentRunOptions;
  readonly descriptors: ReadonlyMap<string, ToolDescriptor>;
}

/**
 * A new run from the merged options: its output compiled, its projection policies checked, `run_started` reported.
 * @internal
 */
export function startRun(steps: StepContext, runner: RunnerParts, options: LlmAgentRunOptions): RunInProgress {
  const { model, defaults, descriptors } = runner;
  const output = finalAnswerStateOf(model, options, defaults, (name) => descriptors.has(name));
  const run = newRunInProgress(mergeOwn(defaults, options), output);
  checkProjectionPolicies(run, descriptors.values());
  const finalAnswerTool = output === undefined || output.native !== undefined ? undefined : output.compiled.tool.name;
  run.control = newRunControl(run.options, model, new Set(descriptors.keys()), finalAnswerTool, run.clock.now());
  steps.emit(run, { type: 'run_started', runId: run.runId });
  return run;
}

/** The body of `invokeToolCall` (documented there). @internal */
export async function invokeOneCall(
  steps: StepContext,
  call: ModelToolCall,
  options: InvokeToolCallOptions,
  start: (options: LlmAgentRunOptions) => RunInProgress,
): Promise<ToolCallResult> {
  const { turn = 1, ...runOptions } = options;
  if (!Number.isSafeInteger(turn) || turn < 1)
    throw new LlmAgentError('invalid_run_options', `turn must be a positive integer, got ${String(turn)}`);
  const checked = hostCall(call);
  const run = start(runOptions);
  run.turn = turn;
  try {
    const result = await steps.executeToolCall(run, checked);
    if (result.admitted === true && result.projection !== undefined)
      await run.recorder?.recordProjection(
        result.callId,
        result.turn,
        result.toolName,
        result.content,
        result.projection,
      );
    return result;
  } finally {
    steps.emit(run, { type: 'run_finished', runId: run.runId, stopReason: 'other' });
  }
}

/**
 * A host's call for `invokeToolCall`, each field read once into a plain copy (every step then reads the copy, so a
 * getter cannot name one tool to the checks and another to the dispatch): a non-empty, well-formed `id`, a string
 * `name`, `arguments` as JSON text or an object. `LlmAgentError` `invalid_input` for anything else; nothing runs.
 */
function hostCall(call: unknown): ModelToolCall {
  const invalid = (why: string): LlmAgentError =>
    new LlmAgentError('invalid_input', `invokeToolCall needs a tool call { id, name, arguments }: ${why}`);
  if (typeof call !== 'object' || call === null) throw invalid('got no object');
  let fields: Record<string, unknown>;
  try {
    const { id, name, arguments: args, nullsAreAbsent } = call as Record<string, unknown>;
    fields = { id, name, args, nullsAreAbsent };
  } catch (error) {
    throw invalid(`its fields cannot be read (${messageOf(error)})`);
  }
  const { id, name, args, nullsAreAbsent } = fields;
  if (typeof id !== 'string' || id === '' || !id.isWellFormed()) throw invalid('`id` must be a non-empty string');
  if (typeof name !== 'string' || !name.isWellFormed()) throw invalid('`name` must be a string');
  if (typeof args !== 'string' && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw invalid('`arguments` must be JSON text or an object');
  if (nullsAreAbsent !== undefined && typeof nullsAreAbsent !== 'boolean')
    throw invalid('`nullsAreAbsent` must be a boolean');
  return {
    id,
    name,
    arguments: args as ModelToolCall['arguments'],
    ...(nullsAreAbsent === undefined ? {} : { nullsAreAbsent }),
  };
}

/**
 * The body of `complete()` and `stream()`: the continued conversation read, the durable record created, then the
 * input and the loop. @internal
 */
export async function completeRun(
  steps: StepContext,
  run: RunInProgress,
  input: readonly ChatMessage[],
  defaultMemory: Memory,
): Promise<LlmAgentRunResult> {
  const earlier = run.options.continueFrom === undefined ? [] : await loadContinuedConversation(run.options);
  await run.recorder?.createRun(entryAgentMetadata(steps), leaseOf(run));
  return await runDurably(steps, run, defaultMemory, async () => {
    for (const message of earlier) await steps.recordMessage(run, message);
    await recordInput(steps, run, input);
    await guardInput(steps, run, input);
    await runLoop(steps, run);
  });
}

/** The body of `resume()`: the record, read under the lease, continued from its last turn. @internal */
export function resumeRun(steps: StepContext, run: RunInProgress, defaultMemory: Memory): Promise<LlmAgentRunResult> {
  return runDurably(steps, run, defaultMemory, async (record) => {
    restoreRecord(run, record);
    restoreBudget(run, record);
    restoreToolCallCounts(run, record);
    restoreHandoff(steps, run, record);
    await run.recorder?.setStatus('running');
    const { output } = run;
    const accepted = output === undefined ? undefined : await restoreFinalAnswer(output, run.messages);
    if (accepted !== undefined) {
      run.text = accepted.text;
      run.stopReason = 'end_turn';
    }
    // A record that ends with a guardrail's notice was stopped by it: nothing more runs.
    if (!resumedGuardrailStop(run, record)) await resumePendingCalls(steps, run);
    await runLoop(steps, run);
  });
}

/** The body of `resumeStream()` (documented there). @internal */
export function resumeStreamed(
  steps: StepContext,
  runId: string,
  options: LlmAgentRunOptions,
  defaults: LlmAgentRunOptions,
  defaultMemory: Memory,
  start: (options: LlmAgentRunOptions) => RunInProgress,
): LlmAgentRunStream {
  const store = options.store ?? defaults.store;
  if (store === undefined) throw new LlmAgentError('invalid_run_options', 'resumeStream() needs a store');
  const channel = openRunStream(runId, options, defaults);
  const run = start(channel.runOptions(mergeOwn(options, { store, runId })));
  run.stream = channel;
  channel.bind(async () => {
    // Whether the run exists; its chain is verified once, by the leased read the resume continues from.
    if ((await store.exportRun(runId)) === undefined)
      throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
    return resumeRun(steps, run, defaultMemory);
  });
  return keptStreamOf(channel, mergeOwn(defaults, options, { store }));
}

/**
 * Runs a body under the run's lease (durable runs), then finishes the run; the runner's own memory forgets the
 * conversation after it.
 */
async function runDurably(
  steps: StepContext,
  run: RunInProgress,
  defaultMemory: Memory,
  body: (record?: AgentRunRecord) => Promise<void>,
): Promise<LlmAgentRunResult> {
  try {
    if (run.recorder !== undefined) return await runUnderLease(run, run.recorder, body, () => steps.finishRun(run));
    await body();
    return steps.finishRun(run);
  } finally {
    // Kept for good, every run of a long-lived runner would stay in memory (the result has the conversation).
    if (run.options.memory === undefined && defaultMemory instanceof InMemoryMemory) defaultMemory.forget(run.runId);
    forgetHandoffMemories(run);
  }
}

/**
 * Model steps until a stop reason is set (the model's, `maxSteps`, the run's abort, a guardrail). A run with `output`
 * whose model ended its turn without the final answer is asked for it (a user message; one repair) and goes
 * on, until it comes or the repairs are used up (`StructuredOutputError`); a final answer an output guardrail rejects
 * is sent back the same way. A guardrail's stop records its notice and ends the loop. A turn whose transfer call was
 * answered hands the run over (`handoffs`): the next steps are the target's.
 */
async function runLoop(steps: StepContext, run: RunInProgress): Promise<void> {
  const { output } = run;
  for (;;) {
    while (run.stopReason === undefined) {
      if (run.options.signal?.aborted) run.stopReason = 'aborted';
      else if (run.steps >= (run.options.maxSteps ?? DEFAULT_MAX_STEPS)) run.stopReason = 'max_steps';
      else {
        // After a handoff the holding agent's steps run (its model, tools and overrides).
        await activeSteps(run, steps).runStep(run);
        applyTurnHandoff(steps, run);
        if (run.stopReason === undefined && stopConditionHolds(run)) run.stopReason = 'stop_condition';
      }
    }
    if (await endedByGuardrail(steps, run)) return;
    const repair = output === undefined ? undefined : await finalAnswerRepair(run, output);
    // The output guardrails judge an answer that stands; a reject goes back to the model like a repair.
    const feedback = repair ?? (await outputGuardrailFeedback(steps, run));
    if (feedback === undefined) {
      await endedByGuardrail(steps, run);
      return;
    }
    await steps.recordMessage(run, { role: 'user', content: feedback });
    run.stopReason = undefined;
  }
}

/**
 * The message asking again for the final answer of a run with `output` that ended its turn without a valid one;
 * undefined when none is due.
 */
async function finalAnswerRepair(run: RunInProgress, output: FinalAnswerState): Promise<string | undefined> {
  // Native mode: the final text is the answer; a bad one is sent back.
  if (endedWithNativeAnswer(output, run.stopReason)) {
    const repair = await judgeNativeAnswer(output, run.text, run.stopReason ?? 'other');
    if (repair === undefined) run.stopReason = 'end_turn';
    return repair;
  }
  return output.accepted === undefined && run.stopReason === 'end_turn' ? askForFinalAnswer(output) : undefined;
}

/**
 * Runs the calls of a resumed run's last turn that have no Tool message yet. Only a model response's calls run
 * (the record says which messages are: see `MessageOrigin`); the calls of an assistant message a caller wrote
 * (`createRun`, `saveMessages`, a host's `appendMessages`) are answered `not_executed` and never dispatched.
 */
async function resumePendingCalls(steps: StepContext, run: RunInProgress): Promise<void> {
  const last = lastTurnOf(run.messages);
  if (last === undefined) return;
  if (last.pending.length > 0) {
    await run.stream?.resumedCalls(run.steps, run.turn, last.assistant.toolCalls, last.pending);
    const records = isModelResponse(last.assistant)
      ? await executeToolCalls(activeSteps(run, steps), run, last.pending)
      : refuseCallerCalls(steps, run, last.pending);
    await recordToolResults(activeSteps(run, steps), run, records);
    applyTurnHandoff(steps, run);
  } else if (last.assistant.toolCalls.length === 0 && last.isLastMessage) {
    // A turn without calls ended the run, unless a message came after it (a repair asked for): then the model is
    // asked again.
    run.text = last.assistant.content;
    run.stopReason = 'end_turn';
  }
}

/**
 * Records the input of `complete()` or `stream()`. The calls of its last assistant message that it does not
 * answer (a caller's history, not a model response of this run) are answered `not_executed` right after
 * that message's Tool messages, and never run; the rest of the input follows.
 */
async function recordInput(steps: StepContext, run: RunInProgress, input: readonly ChatMessage[]): Promise<void> {
  const open = openInputCalls(input);
  for (const message of open === undefined ? input : input.slice(0, open.at)) await steps.recordMessage(run, message);
  if (open === undefined) return;
  run.turn = assistantMessagesOf(run.messages);
  await recordToolResults(steps, run, refuseCallerCalls(steps, run, open.calls));
  for (const message of input.slice(open.at)) await steps.recordMessage(run, message);
}

/** Refuses calls of caller-supplied history (`not_executed`, nothing runs); they join the run's calls. */
function refuseCallerCalls(steps: StepContext, run: RunInProgress, calls: readonly ModelToolCall[]): ToolCallResult[] {
  const records = calls.map((call) => steps.refuseToolCall(run, call, notExecutedOutcome(call)));
  run.toolCalls.push(...records);
  return records;
}
