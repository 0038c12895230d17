import { randomUUID } from 'node:crypto';
import { AgentRunRecord } from '../durable/agent-run-record';
import { callKey } from '../durable/record-rules';
import { withRunLease } from '../durable/with-run-lease';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { InMemoryMemory, Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { LlmTool } from '../contract/llm-tool';
import { ChatMessage, ModelRequest, ModelResponse, ModelToolCall } from '../model/model-types';
import { ToolProvider } from '../providers/tool-provider';
import { InvokeToolCallOptions, LlmAgentRunOptions } from './run-options';
import { inputMessages, LlmAgentRunInput, loadContinuedConversation } from './run-input';
import { askForFinalAnswer, executeWithFinalAnswers, FinalAnswerState } from './final-answer';
import { compileStructuredOutput, StructuredOutputOf, StructuredOutputSchema } from './structured-output';
import { endedWithNativeAnswer, judgeNativeAnswer, nativeFormatOf } from './native-answer';
import { deriveIdempotencyKey } from './idempotency-key';
import { ToolOutcome } from '../outcome/tool-outcome';
import { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { RunRecorder } from './run-recorder';
import { checkRunLimits, defaultWorkerId, stopReasonOf, storedStatusOf } from './runner-rules';
import { LlmAgentError } from './runner-error';
import { SYSTEM_CLOCK } from './runner-clock';
import { isPromiseLike, untilAborted } from './maybe-promise';
import { AbortGrace, DEFAULT_ABORTED_WRITE_GRACE_MS } from './abort-grace';
import { ToolCallPipeline } from './tool-call-pipeline';
import { standardFailure } from '../outcome/tool-outcome';
import type { ToolCallResultOf } from '../tools/tool-typing';
import { RunStreamChannel } from './run-stream';
import { LlmAgentRunStream } from './stream-events';
import { streamModelStep } from './stream-model-step';
import { streamBufferSizeOf } from './stream-buffer-policy';
import { restoreFinalAnswer } from './resumed-final-answer';
import { recordInOrder, rejectedWith, SETTLED } from './settled';

/** Default most model requests in one run. */
export const DEFAULT_MAX_STEPS = 16;

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
export class LlmAgentRunner<Tools = unknown, Call extends ToolCallResult = ToolCallResultOf<Tools>> extends ToolCallPipeline {
  protected readonly defaultMemory: Memory = new InMemoryMemory();
  /** The stream of each run started by `stream()`. */
  private readonly streams = new WeakMap<RunState, RunStreamChannel>();
  /** The final-answer state of each run with `output`. */
  private readonly outputs = new WeakMap<RunState, FinalAnswerState>();

  /** @see ToolCallPipeline for the checks made on the provider's tools. */
  constructor(
    readonly model: ModelStepper,
    provider: ToolProvider & { readonly reflectedClasses?: readonly Tools[] },
    protected readonly defaults: LlmAgentRunOptions = {},
  ) {
    super(provider);
  }

  /**
   * Runs the loop until the model answers without tool calls, `maxSteps` is reached, or the run aborts.
   * The input is a prompt or a message list ending with a user message (`invalid_input` otherwise);
   * with `continueFrom`, a stored conversation comes before it.
   */
  complete<S extends StructuredOutputSchema>(input: LlmAgentRunInput, options: LlmAgentRunOptions & { readonly output: S }): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  complete(input: LlmAgentRunInput, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  complete(input: LlmAgentRunInput, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    // Not an `async` function (no extra promise per run); what throws here still becomes the rejection.
    try {
      const messages = inputMessages(input);
      // the calls are those of the provider `Tools` was inferred from
      return this.completeRun(this.startOutputRun(options), messages) as Promise<LlmAgentRunResult<Call>>;
    } catch (error) {
      return rejectedWith(error);
    }
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
    const channel = this.openChannel(options.runId ?? this.defaults.runId ?? randomUUID(), options);
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

  /** The body of `complete()` and `stream()` for a started run: the continued conversation and the input, then the loop. */
  protected completeRun(run: RunState, input: readonly ChatMessage[]): Promise<LlmAgentRunResult> {
    try {
      const continued = this.continuedConversation(run);
      // A run that continues nothing and has no record to create starts its body at once.
      if (continued === NOTHING_CONTINUED && run.recorder === undefined)
        return this.loopsAsDefined() ? this.completePlainRun(run, input) : this.runDurably(run, () => this.converse(run, NO_MESSAGES, input));
      return this.completeContinuedRun(run, continued, input);
    } catch (error) {
      return rejectedWith(error);
    }
  }

  /** `completeRun` once the continued conversation is read and the durable record created. */
  private async completeContinuedRun(run: RunState, continued: Promise<readonly ChatMessage[]>, input: readonly ChatMessage[]): Promise<LlmAgentRunResult> {
    const earlier = await continued;
    if (run.recorder !== undefined) await run.recorder.createRun();
    return await this.runDurably(run, () => this.converse(run, earlier, input));
  }

  /**
   * `runDurably(run, converse)` of a run without a store, as one `async` function: no lease, the loop of
   * `runLoop`, the result of `finishRun`, the memory cleanup of `runDurably`. Only taken while `runDurably`,
   * `runLeased` and `runLoop` are this class's own (see `loopsAsDefined`).
   */
  private async completePlainRun(run: RunState, input: readonly ChatMessage[]): Promise<LlmAgentRunResult> {
    try {
      const recorded = this.recordMessages(run, input);
      if (recorded !== SETTLED) await recorded;
      const plainSteps = this.stepsAsDefined();
      // A run with `output` leaves its calls to `executeToolCalls`, which judges final-answer calls.
      const plainCalls = this.executeToolCalls === LlmAgentRunner.prototype.executeToolCalls && !this.outputs.has(run);
      while (run.stopReason === undefined) {
        const limit = limitReached(run);
        if (limit !== undefined) run.stopReason = limit;
        else if (!plainSteps) await this.runStep(run);
        else {
          // `runStep` as it is defined, awaited piece by piece here: no promise chain of its own per step.
          let response: ModelResponse;
          try {
            response = this.modelResponded(run, await this.sendModelRequest(run));
          } catch (error) {
            await this.modelRequestFailed(run, error);
            continue;
          }
          const recorded = this.recordMessage(run, assistantMessageOf(response));
          if (recorded !== SETTLED) await recorded;
          if (!this.beginTurn(run, response)) continue;
          const calls = response.toolCalls;
          let records: ToolCallResult[];
          if (response.stopReason === 'max_tokens') records = this.refuseIncompleteToolCalls(run, calls);
          else if (calls.length !== 1 || !plainCalls) records = await this.executeToolCalls(run, calls);
          else {
            // A turn of one call, as `executeToolCalls` runs it, with the call's own promise awaited.
            records = [await this.executeToolCall(run, calls[0])];
            run.toolCalls.push(records[0]);
          }
          const recordedResults = this.recordToolResults(run, records);
          if (recordedResults !== SETTLED) await recordedResults;
        }
      }
      const insisted = this.insistOnFinalAnswer(run);
      if (insisted !== SETTLED) await insisted;
      return this.finishRun(run);
    } finally {
      this.forgetConversation(run);
    }
  }

  /** True when `runStep` and `requestModel` are not overridden: `completePlainRun` may take the step apart itself. */
  private stepsAsDefined(): boolean {
    const own = LlmAgentRunner.prototype;
    return this.runStep === own.runStep && this.requestModel === own.requestModel;
  }

  /** True when `runDurably`, `runLeased` and `runLoop` are not overridden: a run without a store may take `completePlainRun`. */
  private loopsAsDefined(): boolean {
    const own = LlmAgentRunner.prototype;
    return this.runDurably === own.runDurably && this.runLeased === own.runLeased && this.runLoop === own.runLoop;
  }

  /** The body of a run of `complete()` or `stream()`: the earlier conversation and the input recorded, then the loop. */
  private async converse(run: RunState, earlier: readonly ChatMessage[], input: readonly ChatMessage[]): Promise<void> {
    const recordedEarlier = this.recordMessages(run, earlier);
    if (recordedEarlier !== SETTLED) await recordedEarlier;
    const recordedInput = this.recordMessages(run, input);
    if (recordedInput !== SETTLED) await recordedInput;
    await this.runLoop(run);
    const insisted = this.insistOnFinalAnswer(run);
    if (insisted !== SETTLED) await insisted;
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
  protected toolsOf(run: RunState): readonly LlmTool[] {
    const output = this.outputs.get(run);
    return output === undefined || output.native !== undefined ? this.llmTools : [...this.llmTools, output.compiled.tool];
  }

  /**
   * A run with `output` whose model ended its turn without the final answer: asks for it (a user
   * message; one repair) and goes on, until it comes or the repairs are used up (`StructuredOutputError`).
   */
  protected insistOnFinalAnswer(run: RunState): Promise<void> {
    const output = this.outputs.get(run);
    return output === undefined ? SETTLED : this.insistOnOutput(run, output);
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

  /** The conversation `continueFrom` names, from the store or else the memory; empty without it. */
  protected continuedConversation(run: RunState): Promise<readonly ChatMessage[]> {
    return run.options.continueFrom === undefined ? NOTHING_CONTINUED : loadContinuedConversation(run.options);
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

  /** The body of `resume()` and `resumeStream()` for a started run: the record, under the lease, continued. */
  protected resumeRun(run: RunState): Promise<LlmAgentRunResult> {
    const runId = run.runId;
    return this.runDurably(run, async (record) => {
      if (record === undefined) throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
      if (record.status === 'completed' || record.status === 'cancelled')
        throw new LlmAgentError('run_conflict', `run '${runId}' is ${record.status} and cannot be resumed`);
      run.messages.push(...record.messages);
      run.steps = record.messages.filter((message) => message.role === 'assistant').length;
      run.turn = run.steps;
      run.recordedKeys = new Map(record.toolCalls.flatMap((call) => (call.idempotencyKey === undefined ? [] : [[callKey(call.turn, call.callId), call.idempotencyKey]])));
      await run.recorder?.setStatus('running');
      await this.restoreOutput(run);
      await this.resumePendingCalls(run);
      await this.runLoop(run);
      await this.insistOnFinalAnswer(run);
    });
  }

  /** A resumed run with `output`: the repairs its record holds, and its final answer when the record already accepted it. */
  protected async restoreOutput(run: RunState): Promise<void> {
    const output = this.outputs.get(run);
    const accepted = output === undefined ? undefined : await restoreFinalAnswer(output, run.messages);
    if (accepted === undefined) return;
    run.text = accepted.text;
    run.stopReason = 'end_turn';
  }

  /** The loop: model steps until a stop reason is set. */
  protected async runLoop(run: RunState): Promise<void> {
    while (run.stopReason === undefined) {
      const limit = limitReached(run);
      if (limit === undefined) await this.runStep(run);
      else run.stopReason = limit;
    }
  }

  /**
   * Runs the calls of the last assistant turn that have no Tool message yet (a resumed run). Only the Tool
   * messages after that assistant message answer its calls: a call id answered in an earlier turn may be reused.
   */
  protected async resumePendingCalls(run: RunState): Promise<void> {
    const index = run.messages.findLastIndex((message) => message.role === 'assistant');
    const lastAssistant = run.messages[index];
    if (lastAssistant === undefined || lastAssistant.role !== 'assistant') return;
    const answered = new Set(run.messages.slice(index + 1).flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
    const pending = lastAssistant.toolCalls.filter((call) => !answered.has(call.id));
    if (pending.length > 0) await this.streams.get(run)?.resumedCalls(run.steps, run.turn, lastAssistant.toolCalls, pending);
    if (pending.length > 0) await this.recordToolResults(run, await this.executeToolCalls(run, pending));
    // A turn without calls ended the run, unless a message came after it (a repair asked for): then the model is asked again.
    else if (lastAssistant.toolCalls.length === 0 && index === run.messages.length - 1) {
      run.text = lastAssistant.content;
      run.stopReason = 'end_turn';
    }
  }

  /**
   * Runs the body under the run's lease when the run is durable, then stores the final status.
   * Without a store it just runs the body. When the lease is lost mid-run (taken over, or not
   * renewable), the run's signal aborts, this worker writes nothing more to the run (no admission,
   * no message, no status: another worker owns it now) and the call rejects with the lease's reason
   * (a `RunStoreError` `lease_held` when it was taken over).
   */
  protected async runDurably(run: RunState, body: (record?: AgentRunRecord) => Promise<void>): Promise<LlmAgentRunResult> {
    try {
      return await this.runLeased(run, body);
    } finally {
      this.forgetConversation(run);
    }
  }

  /**
   * The runner's own memory keeps a conversation only while its run runs (the result has it); kept for
   * good, every run of a long-lived runner would stay in memory.
   */
  private forgetConversation(run: RunState): void {
    if (run.options.memory === undefined && this.defaultMemory instanceof InMemoryMemory) this.defaultMemory.forget(run.runId);
  }

  /**
   * `runDurably` without the memory cleanup: the body under the lease, given the record read once the
   * lease was held, its writes carrying the lease's fencing token; then the final status.
   */
  protected async runLeased(run: RunState, body: (record?: AgentRunRecord) => Promise<void>): Promise<LlmAgentRunResult> {
    const recorder = run.recorder;
    if (recorder === undefined) {
      await body();
      return this.finishRun(run);
    }
    const lease = { workerId: run.options.workerId ?? defaultWorkerId(), ttlMs: run.options.leaseTtlMs ?? 60_000 };
    // Bounded once the run aborts: a store that stops answering (the lease, a write, the release) cannot keep it pending.
    return recorder.settle(withRunLease(recorder.store, run.runId, lease, async (leaseSignal, held) => {
      recorder.holdLease(leaseSignal, held.fencingToken);
      const userSignal = run.options.signal;
      run.options = { ...run.options, signal: userSignal === undefined ? leaseSignal : AbortSignal.any([userSignal, leaseSignal]) };
      try {
        await body(held.record);
      } catch (error) {
        if (leaseSignal.aborted) throw leaseSignal.reason;
        // A run the body refused to continue (already ended) keeps its status.
        if (error instanceof LlmAgentError && error.code === 'run_conflict') throw error;
        await recorder.setStatus('failed').catch(() => undefined);
        throw error;
      }
      await recorder.setStatus(storedStatusOf(run.stopReason));
      return this.finishRun(run);
    }));
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
  invokeToolCall(call: ModelToolCall, options: InvokeToolCallOptions = {}): Promise<ToolCallResult> {
    let run: RunState;
    let executing: Promise<ToolCallResult>;
    try {
      const turn = options.turn ?? 1;
      if (!Number.isSafeInteger(turn) || turn < 1) throw new LlmAgentError('invalid_run_options', `turn must be a positive integer, got ${String(turn)}`);
      // `turn` is not a run option: copied out only when given (a rest copy of the options costs on every call).
      run = this.startRun(options.turn === undefined ? options : withoutTurn(options));
      run.turn = turn;
      executing = this.executeToolCall(run, call);
    } catch (error) {
      return rejectedWith(error);
    }
    // Without a store and a listener nothing follows the call: its promise is the answer.
    if (run.recorder === undefined && !this.isListening(run)) return executing;
    return this.finishInvokedCall(run, executing);
  }

  /** The end of an `invokeToolCall` with a store or a listener: the projection audit stored, `run_finished` reported. */
  private async finishInvokedCall(run: RunState, executing: Promise<ToolCallResult>): Promise<ToolCallResult> {
    try {
      const result = await executing;
      if (result.admitted === true && result.projection !== undefined) await run.recorder?.recordProjection(result.callId, result.turn, result.toolName, result.content, result.projection);
      return result;
    } finally {
      // The call is a run of its own for listeners and traces: it ends, whatever happened (stop reason `other`).
      if (this.isListening(run)) this.emit(run, { type: 'run_finished', runId: run.runId, stopReason: 'other' });
    }
  }

  /** One model request and the tool calls it asked for. */
  protected runStep(run: RunState): Promise<void> {
    let requesting: Promise<ModelResponse>;
    try {
      requesting = this.requestModel(run);
    } catch (error) {
      return this.modelRequestFailed(run, error);
    }
    // Chained, not awaited: a step carries no suspended frame of its own across the model request and the tool calls.
    return Promise.resolve(requesting).then(
      (response) => this.takeModelResponse(run, response),
      (error: unknown) => this.modelRequestFailed(run, error),
    );
  }

  /** A model request that failed: the run stops as `aborted` when its signal aborted, else the error goes on. */
  private modelRequestFailed(run: RunState, error: unknown): Promise<void> {
    if (!run.options.signal?.aborted) return rejectedWith(error);
    run.stopReason = 'aborted';
    return SETTLED;
  }

  /** The model's answer recorded, then its tool calls run and their Tool messages recorded (`undefined`: nothing left to wait for). */
  private takeModelResponse(run: RunState, response: ModelResponse): Promise<void> | undefined {
    const recorded = this.recordMessage(run, assistantMessageOf(response));
    if (recorded !== SETTLED) return recorded.then(() => this.runToolCallsOf(run, response));
    return this.runToolCallsOf(run, response);
  }

  /**
   * The turn of a recorded answer begins: its ordinal and text taken. False when it asked for no tool call
   * (the run then stops with the answer's stop reason, unless the model only paused its turn).
   */
  private beginTurn(run: RunState, response: ModelResponse): boolean {
    // The calls of this answer belong to its turn, the ordinal of its assistant message in the whole record (a run
    // started from an earlier conversation carries its assistant messages over): a call id reused later is another call.
    run.turn = assistantMessagesOf(run);
    run.text = response.text;
    if (response.toolCalls.length > 0) return true;
    if (response.stopReason !== 'pause_turn') run.stopReason = stopReasonOf(response);
    return false;
  }

  /** The turn of a recorded answer, then its calls executed (or refused, when the answer was cut) and their results recorded. */
  private runToolCallsOf(run: RunState, response: ModelResponse): Promise<void> | undefined {
    if (!this.beginTurn(run, response)) return undefined;
    if (response.stopReason === 'max_tokens') return unlessSettled(this.recordToolResults(run, this.refuseIncompleteToolCalls(run, response.toolCalls)));
    return this.executeToolCalls(run, response.toolCalls).then((records) => unlessSettled(this.recordToolResults(run, records)));
  }


  /**
   * The model's answer was cut at its token limit, so the arguments of its tool calls may be cut
   * too (a truncated string still matches a `string` schema). None of them runs; each gets
   * `incomplete_tool_call` so the model can ask again with a shorter answer.
   */
  protected refuseIncompleteToolCalls(run: RunState, calls: readonly ModelToolCall[]): ToolCallResult[] {
    const records = calls.map((call) =>
      this.refuseToolCall(
        run,
        call,
        standardFailure('incomplete_tool_call', `the answer was cut at the model's token limit, so the arguments of '${call.name}' may be incomplete; it was not run`),
      ),
    );
    run.toolCalls.push(...records);
    return records;
  }

  /**
   * Appends the Tool messages of a turn, in call order; in a durable run each admitted call's
   * projection audit is stored in the same transaction as its message, so the audit describes exactly
   * the content the model gets. When a call waits for a stored approval the turn is left open and the run
   * suspends (`awaiting_approval`); completed calls stay admitted, and their projection is audited
   * when the turn is answered after the resume (under the policy of that run).
   */
  protected recordToolResults(run: RunState, records: readonly ToolCallResult[]): Promise<void> {
    try {
      for (const record of records) {
        if (record.awaitingApproval !== true) continue;
        run.stopReason = 'awaiting_approval';
        return SETTLED;
      }
      // An asynchronous write (a store, an async memory): the rest of the turn is recorded once it is done.
      return recordInOrder(records, (record) => this.recordToolResult(run, record));
    } catch (error) {
      return rejectedWith(error);
    }
  }

  /** Records messages in order (each once the one before is written); `SETTLED` when every write was synchronous. */
  private recordMessages(run: RunState, messages: readonly ChatMessage[]): Promise<void> {
    return recordInOrder(messages, (message) => this.recordMessage(run, message));
  }

  /** Records the Tool message of one call, with its projection audit when the call was admitted. */
  private recordToolResult(run: RunState, record: ToolCallResult): Promise<void> {
    const audited = record.admitted === true ? record.projection : undefined;
    const isError = !record.outcome.ok || record.projection === undefined;
    const parts = record.parts;
    const message: ChatMessage =
      parts === undefined || parts.length === 0
        ? { role: 'tool', toolCallId: record.callId, toolName: record.toolName, content: record.content, isError }
        : { role: 'tool', toolCallId: record.callId, toolName: record.toolName, content: record.content, isError, parts };
    return this.recordMessage(run, message, audited);
  }

  /** Creates the state of a run from the merged options; throws `invalid_run_options` for a limit that cannot work. */
  protected startRun(options: LlmAgentRunOptions): RunState {
    const merged: LlmAgentRunOptions = { ...this.defaults, ...options };
    checkRunLimits(merged);
    const runId = merged.runId ?? randomUUID();
    const run: RunState = {
      runId,
      options: merged,
      recorder: merged.store === undefined ? undefined : new RunRecorder(merged.store, runId, abortGraceOf(merged, runId)),
      clock: merged.clock ?? SYSTEM_CLOCK,
      messages: [],
      toolCalls: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      steps: 0,
      turn: 1,
      text: '',
      stopReason: undefined,
      countedMessages: 0,
      assistantMessages: 0,
    };
    this.checkProjectionPolicies(run);
    if (this.isListening(run)) this.emit(run, { type: 'run_started', runId: run.runId });
    return run;
  }

  /** Sends the conversation to the model; when the run aborts first, rejects at once with the abort reason. */
  protected requestModel(run: RunState): Promise<ModelResponse> {
    try {
      return this.requestAndCount(run);
    } catch (error) {
      return rejectedWith(error);
    }
  }

  /** {@link requestModel}'s body: the request sent, its response counted and reported once it comes (no async frame of its own). */
  private requestAndCount(run: RunState): Promise<ModelResponse> {
    return this.sendModelRequest(run).then((response) => this.modelResponded(run, response));
  }

  /** The request of the next step sent, raced against the run's signal (a client that ignores it must not keep the run waiting). */
  private sendModelRequest(run: RunState): Promise<ModelResponse> {
    run.steps++;
    if (this.isListening(run)) this.emit(run, { type: 'model_requested', runId: run.runId, step: run.steps });
    const signal = run.options.signal ?? NEVER_ABORTED;
    // Raced against the signal: a client that ignores it must not keep the run waiting after an abort.
    const format = this.outputs.get(run)?.native;
    const system = run.options.system;
    const messages = run.messages.slice();
    const tools = this.toolsOf(run);
    const request: ModelRequest = format === undefined ? { system, messages, tools, signal } : { system, messages, tools, signal, responseFormat: format };
    return untilAborted(this.stepModel(run, request), run.options.signal);
  }

  /** A model response arrived: its usage counted, `model_responded` reported. */
  private modelResponded(run: RunState, response: ModelResponse): ModelResponse {
    run.usage = {
      inputTokens: run.usage.inputTokens + response.usage.inputTokens,
      outputTokens: run.usage.outputTokens + response.usage.outputTokens,
    };
    if (this.isListening(run)) this.emit(run, { type: 'model_responded', runId: run.runId, step: run.steps, response });
    return response;
  }

  /**
   * The model request itself: `step()`, or in a run of `stream()` a streamed step whose deltas reach
   * the stream as they arrive (`stream()` and `complete()` differ in this step only).
   */
  protected stepModel(run: RunState, request: ModelRequest): Promise<ModelResponse> {
    const channel = this.streams.get(run);
    if (channel === undefined) return this.model.step(request);
    const step = run.steps;
    // The turn its calls will have: the ordinal of the assistant message this step is about to add.
    const turn = assistantMessagesOf(run) + 1;
    return streamModelStep(this.model, request, (event) => channel.modelEvent(step, turn, event));
  }

  /** Appends a message to the history and the memory; a Tool message's projection audit, when given, is stored with it. */
  protected recordMessage(run: RunState, message: ChatMessage, projection?: ToolOutputProjectionReport): Promise<void> {
    try {
      run.messages.push(message);
      if (run.recorder !== undefined) return this.recordDurableMessage(run, run.recorder, message, projection);
      // A synchronous memory (the default) is not awaited: no promise, no turn of the microtask queue per message.
      const appended = (run.options.memory ?? this.defaultMemory).append(run.runId, message);
      return isPromiseLike(appended) ? Promise.resolve(appended) : SETTLED;
    } catch (error) {
      return rejectedWith(error);
    }
  }

  /** `recordMessage` of a durable run: the store first, then the memory. */
  private async recordDurableMessage(run: RunState, recorder: RunRecorder, message: ChatMessage, projection: ToolOutputProjectionReport | undefined): Promise<void> {
    await recorder.appendMessage(message, projection === undefined ? undefined : { turn: run.turn, report: projection });
    await (run.options.memory ?? this.defaultMemory).append(run.runId, message);
  }

  /** Builds the result and reports the end of the run. */
  protected finishRun(run: RunState): LlmAgentRunResult {
    const stopReason: LlmAgentStopReason = run.stopReason ?? 'other';
    if (this.isListening(run)) this.emit(run, { type: 'run_finished', runId: run.runId, stopReason });
    const { runId, text, messages, toolCalls, usage, steps } = run;
    const accepted = this.outputs.get(run)?.accepted;
    if (accepted === undefined) return { runId, text, messages, toolCalls, usage, stopReason, steps };
    return { runId, text, messages, toolCalls, usage, stopReason, steps, output: accepted.value };
  }
}

/** Why the loop stops before its next step (the run aborted, or it made `maxSteps` requests), if it does. */
function limitReached(run: RunState): LlmAgentStopReason | undefined {
  if (run.options.signal?.aborted) return 'aborted';
  if (run.steps >= (run.options.maxSteps ?? DEFAULT_MAX_STEPS)) return 'max_steps';
  return undefined;
}

/** What `continuedConversation` gives a run without `continueFrom`. */
const NOTHING_CONTINUED: Promise<readonly ChatMessage[]> = Promise.resolve(Object.freeze([]));

const NO_MESSAGES: readonly ChatMessage[] = Object.freeze([]);

/** The signal of runs without one: never aborts. */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** The bound on a run's store operations once its signal aborts (`abortedWriteGraceMs`). */
function abortGraceOf(options: LlmAgentRunOptions, runId: string): AbortGrace | undefined {
  const signal = options.signal;
  if (signal === undefined) return undefined;
  const graceMs = options.abortedWriteGraceMs ?? DEFAULT_ABORTED_WRITE_GRACE_MS;
  return new AbortGrace(signal, graceMs, options.clock ?? SYSTEM_CLOCK, () =>
    new LlmAgentError(
      'store_write_abandoned',
      `run '${runId}' was aborted and its store did not answer within ${graceMs} ms; the runner stopped waiting (the write may still land, ` +
        'fenced by the lease). Resume the run as after a crash.',
      { cause: signal.reason },
    ),
  );
}

/**
 * How many assistant messages the run's history holds (the turn of the last one), counted on from where
 * the last count stopped: each message is looked at once per run, not once per step.
 */
function assistantMessagesOf(run: RunState): number {
  const messages = run.messages;
  let from = run.countedMessages ?? 0;
  let count = run.assistantMessages ?? 0;
  if (from > messages.length) from = count = 0;
  for (let index = from; index < messages.length; index++) if (messages[index].role === 'assistant') count++;
  run.countedMessages = messages.length;
  run.assistantMessages = count;
  return count;
}

/** The assistant message of a model answer; the provider's own content of the turn (e.g. thinking blocks) is stored with it, opaque, for a resume anywhere. */
function assistantMessageOf(response: ModelResponse): ChatMessage {
  const providerContent = response.providerContent;
  return providerContent === undefined
    ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
    : { role: 'assistant', content: response.text, toolCalls: response.toolCalls, providerContent };
}

/** The run options of an `invokeToolCall` without its `turn`. */
function withoutTurn(options: InvokeToolCallOptions): LlmAgentRunOptions {
  const { turn: _turn, ...runOptions } = options;
  return runOptions;
}

/** `undefined` for the shared settled promise (a `then` callback that returns a promise costs the chain two more turns), else the promise. */
function unlessSettled(pending: Promise<void>): Promise<void> | undefined {
  return pending === SETTLED ? undefined : pending;
}
