import { newRunId } from './new-run-id';
import { ModelStepper } from '../model/model-stepper';
import { LlmTool } from '../contract/llm-tool';
import { ChatMessage, ModelToolCall } from '../model/model-types';
import { ToolProvider } from '../providers/tool-provider';
import { InvokeToolCallOptions, LlmAgentRunOptions } from './run-options';
import { inputMessages, LlmAgentRunInput } from './run-input';
import { askForFinalAnswer, executeWithFinalAnswers, FinalAnswerState } from './final-answer';
import { compileStructuredOutput, StructuredOutputOf, StructuredOutputSchema } from './structured-output';
import { endedWithNativeAnswer, judgeNativeAnswer, nativeFormatOf } from './native-answer';
import { deriveIdempotencyKey } from './idempotency-key';
import { ToolOutcome } from '../outcome/tool-outcome';
import { LlmAgentRunResult, ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { LlmAgentError } from './runner-error';
import type { ToolCallResultOf } from '../tools/tool-typing';
import { RunStreamChannel } from './run-stream';
import { LlmAgentRunStream } from './stream-events';
import { streamBufferSizeOf } from './stream-buffer-policy';
import { restoreFinalAnswer } from './resumed-final-answer';
import { DurableRunLoop } from './durable-run-loop';

/**
 * Turns model tool calls into safe tool executions under Tool Contract 2.0.
 *
 * `complete()` is a short template method; each policy step is a protected method a subclass can
 * override. Per call, in order: resolve the tool, validate the arguments, check contract/provider
 * capabilities, `allowToolCall`, approval, resource-version precondition, dispatch under the
 * deadline with bounded retries, `prepareToolResult` and output validation, `onToolResult`, then
 * render the Tool message for the model.
 *
 * `Call` types the calls of a result; `bindTools` and a `ReflectedToolProvider` infer it from their
 * tools (`Tools`, see {@link ToolCallResultOf}), any other provider leaves it untyped.
 */
export class LlmAgentRunner<Tools = unknown, Call extends ToolCallResult = ToolCallResultOf<Tools>> extends DurableRunLoop {
  /** @see ToolCallPipeline for the checks made on the provider's tools. */
  constructor(model: ModelStepper, provider: ToolProvider & { readonly reflectedClasses?: readonly Tools[] }, defaults: LlmAgentRunOptions = {}) {
    super(model, provider, defaults);
  }

  /**
   * Runs the loop until the model answers without tool calls, `maxSteps` is reached, or the run aborts.
   * The input is a prompt or a message list ending with a user message (`invalid_input` otherwise, before
   * any model request: see `inputMessages`); with `continueFrom`, a stored conversation comes before it.
   * A tool call in the list is history, never run: the calls its last assistant message leaves without a
   * Tool message are answered `not_executed`. Provider content on the list's messages is dropped
   * (a `WuweWarning`): only the model responses of a stored record replay theirs.
   */
  complete<S extends StructuredOutputSchema>(input: LlmAgentRunInput, options: LlmAgentRunOptions & { readonly output: S }): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  complete(input: LlmAgentRunInput, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async complete(input: LlmAgentRunInput, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    const messages = inputMessages(input);
    // the calls are those of the provider `Tools` was inferred from
    return (await this.completeRun(this.startOutputRun(options), messages)) as LlmAgentRunResult<Call>;
  }

  /**
   * Runs like `complete()` (the same loop, every policy, the same durable record) and streams it: text
   * and tool-call argument deltas as the model sends them (with `streamStep` when the model has it,
   * else synthesized from `step()`), each call's outcome, each step's end, then the result. Partial
   * arguments never run. Aborting (`signal`, `stream.abort()`) or leaving the loop early aborts the run.
   * Invalid options throw here, before anything starts.
   */
  stream(input: LlmAgentRunInput, options: LlmAgentRunOptions = {}): LlmAgentRunStream {
    const messages = inputMessages(input);
    const channel = this.openChannel(options.runId ?? this.defaults.runId ?? newRunId(), options);
    const run = this.startOutputRun(channel.runOptions(options));
    this.streams.set(run, channel);
    channel.bind(() => this.completeRun(run, messages));
    return channel;
  }

  /** The stream of a run of `stream()` or `resumeStream()`: its listener, signal and buffer size from the options. */
  private openChannel(runId: string, options: LlmAgentRunOptions): RunStreamChannel {
    const bufferSize = streamBufferSizeOf(options.streamBuffer ?? this.defaults.streamBuffer);
    return new RunStreamChannel(runId, options.onEvent ?? this.defaults.onEvent, options.signal ?? this.defaults.signal, bufferSize);
  }

  /** The body of `complete()` and `stream()` for a started run: the continued conversation read, the durable record created, then the loop. */
  protected async completeRun(run: RunState, input: readonly ChatMessage[]): Promise<LlmAgentRunResult> {
    const earlier = await this.continuedConversation(run);
    if (run.recorder !== undefined) await run.recorder.createRun();
    return await this.runDurably(run, () => this.converse(run, earlier, input));
  }

  /** The body of a run of `complete()` or `stream()`: the earlier conversation and the input recorded, then the loop. */
  private async converse(run: RunState, earlier: readonly ChatMessage[], input: readonly ChatMessage[]): Promise<void> {
    await this.recordMessages(run, earlier);
    await this.recordInput(run, input);
    await this.runLoop(run);
    await this.insistOnFinalAnswer(run);
  }

  /** `startRun`, plus the compiled `output` of a run that has one (`invalid_run_options` for one that cannot work). */
  protected startOutputRun(options: LlmAgentRunOptions): RunState {
    // The two options as `startRun` merges them, without merging every option a second time per run.
    const output = Object.hasOwn(options, 'output') ? options.output : this.defaults.output;
    const outputPolicy = Object.hasOwn(options, 'outputPolicy') ? options.outputPolicy : this.defaults.outputPolicy;
    const compiled = output === undefined ? undefined : compileStructuredOutput(output, outputPolicy);
    const native = compiled === undefined ? undefined : nativeFormatOf(this.model, compiled, outputPolicy?.mode);
    if (compiled !== undefined && native === undefined && this.descriptors.has(compiled.tool.name))
      throw new LlmAgentError('invalid_run_options', `a tool is already named '${compiled.tool.name}': give the final-answer tool another name (\`outputPolicy.toolName\`)`);
    const run = this.startRun(options);
    if (compiled !== undefined) this.outputs.set(run, { compiled, repairs: 0, ...(native === undefined ? {} : { native }) });
    return run;
  }

  /** The tools the model is offered in a run: the provider's, and the final-answer tool of a run with `output` (not in native mode). */
  protected override toolsOf(run: RunState): readonly LlmTool[] {
    const output = this.outputs.get(run);
    return output === undefined || output.native !== undefined ? this.llmTools : [...this.llmTools, output.compiled.tool];
  }

  /**
   * A run with `output` whose model ended its turn without the final answer: asks for it (a user
   * message; one repair) and goes on, until it comes or the repairs are used up (`StructuredOutputError`).
   */
  protected override async insistOnFinalAnswer(run: RunState): Promise<void> {
    const output = this.outputs.get(run);
    if (output !== undefined) await this.insistOnOutput(run, output);
  }

  /** `insistOnFinalAnswer` of a run with `output`. */
  private async insistOnOutput(run: RunState, output: FinalAnswerState): Promise<void> {
    // Native mode: the final text is the answer; a bad one is sent back (a user message; one repair).
    while (endedWithNativeAnswer(output, run.stopReason)) {
      const repair = await judgeNativeAnswer(output, run.text, run.stopReason ?? 'other');
      if (repair === undefined) {
        run.stopReason = 'end_turn';
        return;
      }
      await this.recordMessage(run, { role: 'user', content: repair });
      run.stopReason = undefined;
      await this.runLoop(run);
    }
    while (output.accepted === undefined && run.stopReason === 'end_turn') {
      await this.recordMessage(run, { role: 'user', content: askForFinalAnswer(output) });
      run.stopReason = undefined;
      await this.runLoop(run);
    }
  }

  /** Final-answer calls of a run with `output` (not in native mode, which has no such tool) are judged here (never dispatched); every other call goes through the pipeline. */
  protected override executeToolCalls(run: RunState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const output = this.outputs.get(run);
    if (output === undefined || output.native !== undefined || !calls.some((call) => call.name === output.compiled.tool.name)) return super.executeToolCalls(run, calls);
    return this.executeWithFinalAnswers(run, output, calls);
  }

  /** `executeToolCalls` of a turn with final-answer calls. */
  private async executeWithFinalAnswers(run: RunState, output: FinalAnswerState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const results = await executeWithFinalAnswers(output, calls, {
      executeOthers: (others) => super.executeToolCalls(run, others),
      finalResult: (call, outcome) => this.finalAnswerResult(run, call, outcome),
    });
    if (output.accepted !== undefined) run.stopReason = 'end_turn';
    return results;
  }

  /** The result of a judged final-answer call: reported and projected like any call, nothing dispatched. */
  private finalAnswerResult(run: RunState, call: ModelToolCall, outcome: ToolOutcome): ToolCallResult {
    this.emit(run, { type: 'tool_call_finished', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, outcome, attempts: 0, durationMs: 0 });
    const { content, report } = this.projectForModel(run, call, outcome);
    const result: ToolCallResult = { callId: call.id, turn: run.turn, toolName: call.name, rawArguments: call.arguments, outcome, attempts: 0, idempotencyKey: deriveIdempotencyKey(run.runId, run.turn, call.id), content, projection: report, durationMs: 0 };
    run.toolCalls.push(result);
    return result;
  }

  /**
   * Continues a stored run (needs `store`): after a crash, or after an approval decision was stored.
   * Admitted outcomes are reused; a call that started but was never admitted runs again only when
   * its tool is idempotent, otherwise the model and the host get `outcome_unknown`. A `failed` run
   * (an error ended it: the model request, a store write) can be resumed too, since its record is as
   * safe to continue as after a crash, and so can a `stopped` one (its step limit was reached; resume
   * it with a larger `maxSteps`); `completed` and `cancelled` runs cannot (`run_conflict`). The record
   * is read after the lease is acquired and the decision is made from that read only, so a worker
   * delayed before its lease cannot continue a run another worker finished meanwhile.
   *
   * `output` (and `outputPolicy`) work as in `complete()`: pass those the run started with. Repairs the
   * record already holds count against `maxRepairs`, and a final answer recorded as accepted before the
   * run stopped is taken again without a model request. Without `output` the run goes on as a plain run:
   * the final-answer tool is not offered, a final-answer call still open in the record is refused like
   * any call of a tool the runner does not have (`unknown_tool`), and the result has no `output`.
   *
   * Only the calls of a model response run: the record keeps each message's origin (`messageOrigins`), and the
   * open calls of an assistant message that was not a model response of a run (the input of `complete()`,
   * `createRun`, `saveMessages`, a host's `appendMessages`) are answered `not_executed`, never dispatched. A
   * record written before origins were kept is resumed as before.
   */
  resume<S extends StructuredOutputSchema>(runId: string, options: LlmAgentRunOptions & { readonly output: S }): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  resume(runId: string, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async resume(runId: string, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    const store = options.store ?? this.defaults.store;
    if (store === undefined) throw new LlmAgentError('invalid_run_options', 'resume() needs a store');
    if ((await store.loadRun(runId)) === undefined) throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
    const run = this.startOutputRun({ ...options, store, runId });
    return this.resumeRun(run) as Promise<LlmAgentRunResult<Call>>;
  }

  /**
   * Resumes like `resume()` (the same rules, the same durable record) and streams it like `stream()`: the
   * calls of the resumed turn still without a Tool message are reported started and finished as they run,
   * then every model step streams. Invalid options (no store among them) throw here; a run the store
   * does not have, or cannot resume, ends the iteration with `run_conflict` after `run_started`.
   */
  resumeStream(runId: string, options: LlmAgentRunOptions = {}): LlmAgentRunStream {
    const store = options.store ?? this.defaults.store;
    if (store === undefined) throw new LlmAgentError('invalid_run_options', 'resumeStream() needs a store');
    const channel = this.openChannel(runId, options);
    const run = this.startOutputRun(channel.runOptions({ ...options, store, runId }));
    this.streams.set(run, channel);
    channel.bind(async () => {
      if ((await store.loadRun(runId)) === undefined) throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
      return this.resumeRun(run);
    });
    return channel;
  }

  /** A resumed run with `output`: the repairs its record holds, and its final answer when the record already accepted it. */
  protected override async restoreOutput(run: RunState): Promise<void> {
    const output = this.outputs.get(run);
    const accepted = output === undefined ? undefined : await restoreFinalAnswer(output, run.messages);
    if (accepted === undefined) return;
    run.text = accepted.text;
    run.stopReason = 'end_turn';
  }

  /**
   * Runs one model tool call through the whole per-call path (every policy, no model), as a host
   * with its own loop would. The run options apply as in `complete()`. With a `store`, the run
   * (`runId`) must already exist in it (`store.createRun`, else `run_not_found`), and no lease is
   * taken: the host's loop owns the run. The admitted outcome's projection audit is stored before
   * the result is returned, since the host sends its `content` to the model. The call belongs to
   * `options.turn` (default 1): a host whose loop reuses call ids across its turns passes each turn's number.
   * Listeners see `run_started` and, however the call ends, `run_finished` (stop reason `other`).
   */
  async invokeToolCall(call: ModelToolCall, options: InvokeToolCallOptions = {}): Promise<ToolCallResult> {
    const turn = options.turn ?? 1;
    if (!Number.isSafeInteger(turn) || turn < 1) throw new LlmAgentError('invalid_run_options', `turn must be a positive integer, got ${String(turn)}`);
    const run = this.startRun(withoutTurn(options));
    run.turn = turn;
    try {
      const result = await this.executeToolCall(run, call);
      if (result.admitted === true && result.projection !== undefined) await run.recorder?.recordProjection(result.callId, result.turn, result.toolName, result.content, result.projection);
      return result;
    } finally {
      // The call is a run of its own for listeners and traces: it ends, whatever happened (stop reason `other`).
      this.emit(run, { type: 'run_finished', runId: run.runId, stopReason: 'other' });
    }
  }
}

/** The run options of an `invokeToolCall` without its `turn`. */
function withoutTurn(options: InvokeToolCallOptions): LlmAgentRunOptions {
  const { turn: _turn, ...runOptions } = options;
  return runOptions;
}
