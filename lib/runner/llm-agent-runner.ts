import { AgentRunRecord } from '../durable/agent-run-record';
import { callKey } from '../durable/rules/value-rules';
import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { messageOf } from '../errors/message-of';
import { InMemoryMemory, Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { ChatMessage, ModelResponse, ModelToolCall } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import type { ToolCallResultOf } from '../tools/tool-typing';
import { lastTurnOf, restoreRecord, runUnderLease } from './durable/durable-run';
import { isPromiseLike, MaybePromise, untilAborted } from './maybe-promise';
import { newRunId } from './new-run-id';
import { countUsage, modelRequestOf, newRunInProgress, runResultOf, toolMessageOf } from './run-lifecycle';
import { inputMessages, LlmAgentRunInput, loadContinuedConversation } from './run-input';
import { InvokeToolCallOptions, LlmAgentRunOptions, ToolCallRequest } from './run-options';
import { LlmAgentRunResult, ToolCallResult } from './run-result';
import { RunInProgress } from './run-state';
import { LlmAgentError } from './runner-error';
import { LlmAgentEvent } from './runner-events';
import { stopReasonOf } from './runner-rules';
import { RunStreamChannel } from './stream/run-stream';
import { openRunStream } from './stream/open-run-stream';
import { LlmAgentRunStream } from './stream/stream-events';
import { streamModelStep } from './stream/stream-model-step';
import { askForFinalAnswer, executeWithFinalAnswers, FinalAnswerState } from './structured-output/final-answer';
import { endedWithNativeAnswer, judgeNativeAnswer } from './structured-output/native-answer';
import { restoreFinalAnswer } from './structured-output/resumed-final-answer';
import { finalAnswerStateOf } from './structured-output/run-output';
import { StructuredOutputOf, StructuredOutputSchema } from './structured-output/structured-output';
import { requestApprovalGate } from './tool-call/call-approval';
import * as completion from './tool-call/call-completion';
import * as dispatch from './tool-call/call-dispatch';
import {
  authorizeGate,
  checkCapabilitiesGate,
  checkPreconditionGate,
  declaredCapabilitiesGate,
  Gate,
  GateStop,
} from './tool-call/call-gates';
import { neededCapabilityNames, refuse, resolveToolGate, validateArgumentsGate } from './tool-call/call-gates';
import { notExecutedOutcome, openInputCalls } from './tool-call/caller-calls';
import { checkProviderTools } from './tool-call/checked-tool';
import { checkedGate } from './tool-call/gate-answer';
import { deriveIdempotencyKey } from './tool-call/idempotency-key';
import { checkProjectionPolicies, projectForModel } from './tool-call/model-projection';
import { StepContext } from './tool-call/step-context';
import { runTurnCalls } from './tool-call/turn-calls';
import { assistantMessageOf, assistantMessagesOf, isModelResponse } from './turn-messages';
import { DEFAULT_MAX_STEPS } from './run-steps';

/**
 * Turns model tool calls into safe tool executions under Tool Contract 2.0: one template, whose
 * protected methods are the steps a subclass can override. Per call (`executeToolCall`), in order:
 * 1 `resolveTool`, 2 `validateArguments`, 3 `checkCapabilities`, 4 `authorize`, 5 `requestApproval`,
 * 6 `checkPrecondition`, 7 and 8 `dispatchWithRetries` (`dispatchAttempt`, `retryAttempts`, `compensate`),
 * 9 `finishOutcome` (`validateOutput`), 10 `completeToolCall` (`projectForModel`). Per run: `runStep`
 * (`requestModel`, `recordMessage`, `refuseIncompleteToolCalls`) until a stop reason, then `finishRun`.
 * Every step that needs another calls its method here, so an override is honoured everywhere; the
 * bodies of the default steps are functions of `tool-call/`, `structured-output/`, `stream/` and `durable/`.
 *
 * `Call` types the calls of a result; `bindTools` and a `ReflectedToolProvider` infer it from their
 * tools (`Tools`, see {@link ToolCallResultOf}), any other provider leaves it untyped.
 */
export class LlmAgentRunner<Tools = unknown, Call extends ToolCallResult = ToolCallResultOf<Tools>> {
  private readonly descriptors = new Map<string, ToolDescriptor>();
  private readonly llmTools: readonly LlmTool[];
  private readonly neededCapabilities = new Map<string, readonly (keyof ToolProviderCapabilities)[]>();
  protected readonly defaultMemory: Memory = new InMemoryMemory();
  private readonly streams = new WeakMap<RunInProgress, RunStreamChannel>();
  private readonly outputs = new WeakMap<RunInProgress, FinalAnswerState>();

  /**
   * Checks every tool the provider lists (contract, input and output schemas). A provider that lists
   * one name twice is refused (`ToolProviderError`, `duplicate_tool`): one of its contracts (say, the
   * one asking for approval) would otherwise be silently ignored.
   */
  constructor(
    readonly model: ModelStepper,
    readonly provider: ToolProvider & { readonly reflectedClasses?: readonly Tools[] },
    protected readonly defaults: LlmAgentRunOptions = {},
  ) {
    const checked = checkProviderTools(provider);
    for (const tool of checked) {
      this.descriptors.set(tool.descriptor.name, tool.descriptor);
      this.neededCapabilities.set(tool.descriptor.name, tool.neededCapabilities);
    }
    this.llmTools = Object.freeze(checked.map((tool) => tool.llmTool));
  }

  /**
   * Runs the loop until the model answers without tool calls, `maxSteps` is reached, or the run aborts.
   * The input is a prompt or a message list ending with a user message (`invalid_input` otherwise, before
   * any model request: see `inputMessages`); with `continueFrom`, a stored conversation comes before it.
   * A tool call in the list is history, never run: the calls its last assistant message leaves without a
   * Tool message are answered `not_executed`. Provider content on the list's messages is dropped
   * (a `WuweWarning`): only the model responses of a stored record replay theirs.
   */
  complete<S extends StructuredOutputSchema>(
    input: LlmAgentRunInput,
    options: LlmAgentRunOptions & { readonly output: S },
  ): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  complete(input: LlmAgentRunInput, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async complete(input: LlmAgentRunInput, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    const messages = inputMessages(input);
    // the calls are those of the provider `Tools` was inferred from
    return (await this.completeRun(this.startRun(options), messages)) as LlmAgentRunResult<Call>;
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
    const channel = openRunStream(options.runId ?? this.defaults.runId ?? newRunId(), options, this.defaults);
    const run = this.startRun(channel.runOptions(options));
    this.streams.set(run, channel);
    channel.bind(() => this.completeRun(run, messages));
    return channel;
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
  resume<S extends StructuredOutputSchema>(
    runId: string,
    options: LlmAgentRunOptions & { readonly output: S },
  ): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  resume(runId: string, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async resume(runId: string, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    const store = options.store ?? this.defaults.store;
    if (store === undefined) throw new LlmAgentError('invalid_run_options', 'resume() needs a store');
    // Whether the run exists; its chain is verified once, by the leased read the resume continues from.
    if ((await store.exportRun(runId)) === undefined)
      throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
    return (await this.resumeRun(this.startRun({ ...options, store, runId }))) as LlmAgentRunResult<Call>;
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
    const channel = openRunStream(runId, options, this.defaults);
    const run = this.startRun(channel.runOptions({ ...options, store, runId }));
    this.streams.set(run, channel);
    channel.bind(async () => {
      // Whether the run exists; its chain is verified once, by the leased read the resume continues from.
      if ((await store.exportRun(runId)) === undefined)
        throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
      return this.resumeRun(run);
    });
    return channel;
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
    const { turn = 1, ...runOptions } = options;
    if (!Number.isSafeInteger(turn) || turn < 1)
      throw new LlmAgentError('invalid_run_options', `turn must be a positive integer, got ${String(turn)}`);
    const run = this.startRun(runOptions);
    run.turn = turn;
    try {
      const result = await this.executeToolCall(run, call);
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
      this.emit(run, { type: 'run_finished', runId: run.runId, stopReason: 'other' });
    }
  }

  /**
   * The per-call path, the numbered steps in order; each gate answers a {@link Gate} (checked: anything else is
   * `invalid_step_answer`), and the first that does not continue stops the call: refused (reported, then completed
   * with its failure) or suspended. A durable run's store admits the call before it is dispatched (or has its
   * outcome already, or refuses it).
   */
  protected async executeToolCall(run: RunInProgress, call: ModelToolCall): Promise<ToolCallResult> {
    const startedAt = run.clock.now();
    const idempotencyKey = this.idempotencyKeyOf(run, call);
    const stop = (gate: GateStop, request?: ToolCallRequest): Promise<ToolCallResult> =>
      this.stopToolCall(run, call, { idempotencyKey, startedAt, request }, gate);
    // 1. The tool must exist.
    const resolved = checkedGate(this.resolveTool(run, call), 'resolveTool');
    if (resolved.kind !== 'continue') return stop(resolved);
    const descriptor = resolved.value;
    // 2. The arguments must decode and match the input schema.
    const validated = checkedGate(this.validateArguments(run, call, descriptor), 'validateArguments');
    if (validated.kind !== 'continue') return stop(validated);
    const request: ToolCallRequest = {
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      arguments: validated.value,
      descriptor,
    };
    if (run.options.signal?.aborted)
      return stop(refuse(standardFailure('cancelled', 'the run was aborted before the tool started')), request);
    // 3. The provider must declare every capability the contract needs.
    const declared = declaredCapabilitiesGate(this.stepContext(run), this.provider, request);
    if (declared.kind !== 'continue') return stop(declared, request);
    const capabilities = declared.value;
    const capable = checkedGate(this.checkCapabilities(run, request, capabilities), 'checkCapabilities');
    if (capable.kind !== 'continue') return stop(capable, request);
    // 4. Host policy.
    const authorized = checkedGate(await this.authorize(run, request), 'authorize');
    if (authorized.kind !== 'continue') return stop(authorized, request);
    // 5. Approval.
    const approved = checkedGate(await this.requestApproval(run, request), 'requestApproval');
    if (approved.kind !== 'continue') return stop(approved, request);
    // 6. The resource-version precondition.
    const precondition = checkedGate(this.checkPrecondition(run, request), 'checkPrecondition');
    if (precondition.kind !== 'continue') return stop(precondition, request);
    const started = { idempotencyKey, startedAt, args: request.arguments, request };
    if (run.recorder !== undefined) {
      const beginning = await run.recorder.beginCall(request, idempotencyKey);
      if (beginning.kind === 'refuse') return stop(beginning, request);
      if (beginning.kind !== 'execute')
        return await this.completeToolCall(run, call, {
          ...started,
          outcome: beginning.outcome,
          attempts: beginning.attempts,
          admitted: true,
        });
    }
    this.emit(run, {
      type: 'tool_call_started',
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      arguments: request.arguments,
    });
    // 7 and 8. Attempts under the deadline, retried only when the contract makes it safe.
    const dispatched = await this.dispatchWithRetries(run, { request, capabilities, idempotencyKey });
    // 9. `prepareToolResult`, output validation, the returned resource version.
    const outcome = await this.finishOutcome(run, request, dispatched.outcome);
    // 10. Admission, `onToolResult`, the result projected for the model.
    return await this.completeToolCall(run, call, { ...started, outcome, attempts: dispatched.attempts });
  }

  /** A call refused before any step ran (nothing executes): reported, projected, never admitted. */
  protected refuseToolCall(run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome): ToolCallResult {
    this.emit(run, {
      type: 'tool_call_refused',
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      outcome,
    });
    return completion.toolCallResult(this.stepContext(run), call, {
      outcome,
      attempts: 0,
      idempotencyKey: this.idempotencyKeyOf(run, call),
      startedAt: run.clock.now(),
    });
  }

  /**
   * The idempotency key of a call of the run's current turn: the one the resumed record holds for it, else
   * {@link deriveIdempotencyKey} of (run, turn, call id). The turn is part of the key, so a model that reuses a
   * call id in a later turn (several OpenAI-compatible servers send `call_0` every turn) gets a fresh call.
   */
  protected idempotencyKeyOf(run: RunInProgress, call: ModelToolCall): string {
    return run.recordedKeys?.get(callKey(run.turn, call.id)) ?? deriveIdempotencyKey(run.runId, run.turn, call.id);
  }

  /** Step 1: the tool must exist (`unknown_tool`). */
  protected resolveTool(_run: RunInProgress, call: ModelToolCall): Gate<ToolDescriptor> {
    return resolveToolGate(this.descriptors, call);
  }

  /** Step 2: arguments must decode and match the input schema; each issue goes back by JSON Pointer. */
  protected validateArguments(run: RunInProgress, call: ModelToolCall, descriptor: ToolDescriptor): Gate<JsonObject> {
    return validateArgumentsGate(this.stepContext(run), call, descriptor);
  }

  /** Step 3: the provider must declare every capability the contract needs for this tool (`capability_mismatch`). */
  protected checkCapabilities(
    _run: RunInProgress,
    request: ToolCallRequest,
    declared: ToolProviderCapabilities,
  ): Gate<void> {
    return checkCapabilitiesGate(
      this.neededCapabilities.get(request.toolName) ?? neededCapabilityNames(request.descriptor),
      request,
      declared,
    );
  }

  /**
   * Step 4: host policy (`allowToolCall`). Fails closed: a throwing or rejecting hook refuses the
   * call; an abort of the run while the hook is pending refuses it as `cancelled`.
   */
  protected authorize(run: RunInProgress, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return authorizeGate(this.stepContext(run), request);
  }

  /**
   * Step 5: approval per the contract's mode. A decision stored for this call (bound to its tool
   * name and argument hash) wins; otherwise the `approvalHandler` decides and the decision is stored.
   * Without a handler a durable run suspends (`{ kind: 'suspend' }`) and a run without a store is denied.
   * A throwing or rejecting handler denies (fail closed); an abort while it is pending is `cancelled`.
   */
  protected requestApproval(run: RunInProgress, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return requestApprovalGate(this.stepContext(run), request);
  }

  /** Step 6: a required expected resource version must be present in the arguments (`precondition_failed`). */
  protected checkPrecondition(_run: RunInProgress, request: ToolCallRequest): Gate<void> {
    return checkPreconditionGate(request);
  }

  /**
   * Steps 7 and 8: the first attempt (`dispatchAttempt`) under the deadline, then `retryAttempts` when it failed and
   * the contract allows more.
   */
  protected dispatchWithRetries(
    run: RunInProgress,
    call: dispatch.AdmittedCall,
  ): MaybePromise<dispatch.DispatchedCall> {
    return dispatch.dispatchWithRetries(this.stepContext(run), call);
  }

  /**
   * The retry loop after the first attempt: only when the contract makes a repeat safe; each attempt
   * through `dispatchAttempt`, compensation through `compensate`. When the run aborts where a retry
   * was due (before or during compensation, or during the backoff), the call ends as `cancelled`; the last
   * attempt's error stays in `details.lastError` and its compensation state is kept. Attempts never
   * overlap: after an attempt whose tool ignored its aborted signal, the retry waits for it at most
   * `abandonedAttemptGraceMs` (default 5000), else the call ends with `details.abandonedAttempt: 'running'`.
   */
  protected retryAttempts(
    run: RunInProgress,
    call: dispatch.AdmittedCall,
    first: MaybePromise<ToolOutcome>,
  ): Promise<dispatch.DispatchedCall> {
    return dispatch.retryAttempts(this.stepContext(run), call, first);
  }

  /** One attempt: builds the invocation (capability-guarded fields only) and runs it under the deadline. */
  protected dispatchAttempt(
    run: RunInProgress,
    call: dispatch.AdmittedCall,
    attempt: number,
  ): MaybePromise<ToolOutcome> {
    return dispatch.dispatchAttempt(this.stepContext(run), this.provider, call, attempt);
  }

  /**
   * Asks the owning provider to undo a failed attempt's partial effect; the outcome records the
   * result. Compensation runs under the tool's declared timeout as its own hard deadline and stops
   * when the run aborts (its invocation's signal aborts; a compensation that ignores it is not
   * waited for): either way it counts as failed, so the call is not retried.
   */
  protected compensate(
    run: RunInProgress,
    call: dispatch.AdmittedCall,
    attempt: number,
    failure: ToolOutcome,
  ): Promise<ToolOutcome> {
    return dispatch.compensate(this.stepContext(run), this.provider, call, attempt, failure);
  }

  /**
   * Step 9: `prepareToolResult`, output-schema validation (`validateOutput`), and the returned
   * resource version. When the hook throws or rejects, the outcome becomes a `tool_error` failure
   * that says the tool ran; the unprepared outcome is withheld, since the hook may exist to redact
   * it. So does a hook that returns something that is not an outcome (say `undefined`, from a forgotten
   * `return`). An abort of the run while the hook is pending ends the call as `cancelled` at once (the tool ran).
   */
  protected finishOutcome(
    run: RunInProgress,
    request: ToolCallRequest,
    outcome: ToolOutcome,
  ): MaybePromise<ToolOutcome> {
    return completion.finishOutcome(this.stepContext(run), request, outcome);
  }

  /** Output validation: `strict` fails, `warning` records issues in metadata, `disabled` skips. */
  protected validateOutput(run: RunInProgress, request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
    return completion.validateOutput(this.stepContext(run), request, outcome);
  }

  /**
   * Step 10: admission (before projection) of a call that began, `onToolResult` for every call with a
   * validated request (executed or refused by a gate; a failing observer is reported, not fatal; one still
   * pending when the run aborts is not waited for), then the result projected by `projectForModel`; its
   * projection audit is stored with its Tool message (`recordToolResults`).
   */
  protected completeToolCall(
    run: RunInProgress,
    call: ModelToolCall,
    result: completion.CompletedCall,
  ): MaybePromise<ToolCallResult> {
    return completion.completeToolCall(this.stepContext(run), call, result);
  }

  /**
   * The one place the model-facing Tool message is made: the rendered outcome, projected within the
   * effective ceilings of the tool's policy, and its images within the run's `toolImages` limits. A
   * projection failure becomes a short `tool_output_projection_failed` failure; the failed content is never sent.
   */
  protected projectForModel(run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome): completion.ModelProjection {
    return projectForModel(this.stepContext(run), this.descriptors.get(call.name), call, outcome);
  }

  /**
   * Delivers an event; a throwing handler does not disturb the run, nor does an async one that
   * rejects (its rejection is caught, so it cannot become an unhandled rejection that ends the process).
   */
  protected emit(run: RunInProgress, event: LlmAgentEvent): void {
    const handler = run.options.onEvent;
    if (handler === undefined) return;
    try {
      const answered: unknown = handler(event);
      if (isPromiseLike(answered)) answered.then(undefined, () => undefined);
    } catch {
      // Observers must not change what runs.
    }
  }

  /**
   * One model request and the tool calls it asked for: the answer recorded, its turn begun, its calls run
   * (or refused, when the answer was cut at its token limit) and their Tool messages recorded. A request cut
   * short by the run's abort stops the run as `aborted`; any other failure fails it.
   */
  protected async runStep(run: RunInProgress): Promise<void> {
    let response: ModelResponse;
    try {
      response = await this.requestModel(run);
    } catch (error) {
      if (!run.options.signal?.aborted) throw error;
      run.stopReason = 'aborted';
      return;
    }
    await this.recordMessage(run, assistantMessageOf(response));
    // The calls of this answer belong to its turn, the ordinal of its assistant message in the whole record.
    run.turn = assistantMessagesOf(run);
    run.text = response.text;
    if (response.toolCalls.length === 0) {
      if (response.stopReason !== 'pause_turn') run.stopReason = stopReasonOf(response);
      return;
    }
    const calls = response.toolCalls;
    const records =
      response.stopReason === 'max_tokens'
        ? this.refuseIncompleteToolCalls(run, calls)
        : await this.executeToolCalls(run, calls);
    await this.recordToolResults(run, records);
  }

  /**
   * Sends the conversation to the model (`step()`, or in a run of `stream()` a streamed step whose deltas reach
   * the stream as they arrive), its usage counted; when the run aborts first, rejects at once with the abort reason.
   */
  protected async requestModel(run: RunInProgress): Promise<ModelResponse> {
    run.steps++;
    this.emit(run, { type: 'model_requested', runId: run.runId, step: run.steps });
    const output = this.outputs.get(run);
    const tools =
      output === undefined || output.native !== undefined ? this.llmTools : [...this.llmTools, output.compiled.tool];
    const request = modelRequestOf(run, tools, output?.native);
    const channel = this.streams.get(run);
    const step = run.steps;
    // A streamed step's calls get the turn of the assistant message it is about to add.
    const turn = assistantMessagesOf(run) + 1;
    const responding =
      channel === undefined
        ? this.model.step(request)
        : streamModelStep(this.model, request, (event) => channel.modelEvent(step, turn, event));
    // Raced against the signal: a client that ignores it must not keep the run waiting after an abort.
    const response = await untilAborted(responding, run.options.signal);
    countUsage(run, response);
    this.emit(run, { type: 'model_responded', runId: run.runId, step: run.steps, response });
    return response;
  }

  /**
   * Appends a message to the history, the durable record (first) and the memory; a Tool message's projection audit,
   * when given, is stored with it.
   */
  protected async recordMessage(
    run: RunInProgress,
    message: ChatMessage,
    projection?: ToolOutputProjectionReport,
  ): Promise<void> {
    run.messages.push(message);
    await run.recorder?.appendMessage(
      message,
      projection === undefined ? undefined : { turn: run.turn, report: projection },
    );
    await (run.options.memory ?? this.defaultMemory).append(run.runId, message);
  }

  /**
   * The model's answer was cut at its token limit, so the arguments of its tool calls may be cut
   * too (a truncated string still matches a `string` schema). None of them runs; each gets
   * `incomplete_tool_call` so the model can ask again with a shorter answer.
   */
  protected refuseIncompleteToolCalls(run: RunInProgress, calls: readonly ModelToolCall[]): ToolCallResult[] {
    const message = (call: ModelToolCall): string =>
      `the answer was cut at the model's token limit, so the arguments of '${call.name}' may be incomplete; it was not run`;
    const records = calls.map((call) =>
      this.refuseToolCall(run, call, standardFailure('incomplete_tool_call', message(call))),
    );
    run.toolCalls.push(...records);
    return records;
  }

  /** Builds the result and reports the end of the run. */
  protected finishRun(run: RunInProgress): LlmAgentRunResult {
    const stopReason = run.stopReason ?? 'other';
    this.emit(run, { type: 'run_finished', runId: run.runId, stopReason });
    return runResultOf(run, stopReason, this.outputs.get(run)?.accepted);
  }

  /**
   * A new run from the merged options: its output compiled, its projection policies checked, `run_started` reported.
   */
  private startRun(options: LlmAgentRunOptions): RunInProgress {
    const output = finalAnswerStateOf(this.model, options, this.defaults, (name) => this.descriptors.has(name));
    const run = newRunInProgress({ ...this.defaults, ...options });
    checkProjectionPolicies(run, this.descriptors.values());
    if (output !== undefined) this.outputs.set(run, output);
    this.emit(run, { type: 'run_started', runId: run.runId });
    return run;
  }

  /**
   * The body of `complete()` and `stream()`: the continued conversation read, the durable record created, then the
   * input and the loop.
   */
  private async completeRun(run: RunInProgress, input: readonly ChatMessage[]): Promise<LlmAgentRunResult> {
    const earlier = run.options.continueFrom === undefined ? [] : await loadContinuedConversation(run.options);
    await run.recorder?.createRun();
    return await this.runDurably(run, async () => {
      for (const message of earlier) await this.recordMessage(run, message);
      await this.recordInput(run, input);
      await this.runLoop(run);
    });
  }

  /** The body of `resume()` and `resumeStream()`: the record, read under the lease, continued from its last turn. */
  private resumeRun(run: RunInProgress): Promise<LlmAgentRunResult> {
    return this.runDurably(run, async (record) => {
      restoreRecord(run, record);
      await run.recorder?.setStatus('running');
      const output = this.outputs.get(run);
      const accepted = output === undefined ? undefined : await restoreFinalAnswer(output, run.messages);
      if (accepted !== undefined) {
        run.text = accepted.text;
        run.stopReason = 'end_turn';
      }
      await this.resumePendingCalls(run);
      await this.runLoop(run);
    });
  }

  /**
   * Runs a body under the run's lease (durable runs), then finishes the run; the runner's own memory forgets the
   * conversation after it.
   */
  private async runDurably(
    run: RunInProgress,
    body: (record?: AgentRunRecord) => Promise<void>,
  ): Promise<LlmAgentRunResult> {
    try {
      if (run.recorder !== undefined) return await runUnderLease(run, run.recorder, body, () => this.finishRun(run));
      await body();
      return this.finishRun(run);
    } finally {
      // Kept for good, every run of a long-lived runner would stay in memory (the result has the conversation).
      if (run.options.memory === undefined && this.defaultMemory instanceof InMemoryMemory)
        this.defaultMemory.forget(run.runId);
    }
  }

  /**
   * Model steps until a stop reason is set (the model's, `maxSteps`, or the run's abort). A run with `output`
   * whose model ended its turn without the final answer is asked for it (a user message; one repair) and goes
   * on, until it comes or the repairs are used up (`StructuredOutputError`).
   */
  private async runLoop(run: RunInProgress): Promise<void> {
    const output = this.outputs.get(run);
    for (;;) {
      while (run.stopReason === undefined) {
        if (run.options.signal?.aborted) run.stopReason = 'aborted';
        else if (run.steps >= (run.options.maxSteps ?? DEFAULT_MAX_STEPS)) run.stopReason = 'max_steps';
        else await this.runStep(run);
      }
      const repair = output === undefined ? undefined : await this.finalAnswerRepair(run, output);
      if (repair === undefined) return;
      await this.recordMessage(run, { role: 'user', content: repair });
      run.stopReason = undefined;
    }
  }

  /**
   * The message asking again for the final answer of a run with `output` that ended its turn without a valid one;
   * undefined when none is due.
   */
  private async finalAnswerRepair(run: RunInProgress, output: FinalAnswerState): Promise<string | undefined> {
    // Native mode: the final text is the answer; a bad one is sent back.
    if (endedWithNativeAnswer(output, run.stopReason)) {
      const repair = await judgeNativeAnswer(output, run.text, run.stopReason ?? 'other');
      if (repair === undefined) run.stopReason = 'end_turn';
      return repair;
    }
    return output.accepted === undefined && run.stopReason === 'end_turn' ? askForFinalAnswer(output) : undefined;
  }

  /**
   * Runs the calls of one turn (`run.turn`) concurrently (see `runTurnCalls`); they join the run's calls in call
   * order. In a run with `output` (not in native mode), the final-answer calls are judged, never dispatched.
   */
  private async executeToolCalls(run: RunInProgress, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const runCalls = (some: readonly ModelToolCall[]): Promise<ToolCallResult[]> =>
      runTurnCalls(
        some,
        (call) => this.executeToolCall(run, call),
        (call, outcome) => this.refuseToolCall(run, call, outcome),
      );
    const output = this.outputs.get(run);
    if (
      output === undefined ||
      output.native !== undefined ||
      !calls.some((call) => call.name === output.compiled.tool.name)
    ) {
      const records = await runCalls(calls);
      run.toolCalls.push(...records);
      return records;
    }
    const records = await executeWithFinalAnswers(output, calls, {
      executeOthers: async (others) => {
        const results = await runCalls(others);
        run.toolCalls.push(...results);
        return results;
      },
      finalResult: (call, outcome) => this.finalAnswerResult(run, call, outcome),
    });
    if (output.accepted !== undefined) run.stopReason = 'end_turn';
    return records;
  }

  /** The result of a judged final-answer call: reported and projected like any call, nothing dispatched. */
  private finalAnswerResult(run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome): ToolCallResult {
    this.emit(run, {
      type: 'tool_call_finished',
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      outcome,
      attempts: 0,
      durationMs: 0,
    });
    const { content, report } = this.projectForModel(run, call, outcome);
    const idempotencyKey = deriveIdempotencyKey(run.runId, run.turn, call.id);
    const result: ToolCallResult = {
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      rawArguments: call.arguments,
      outcome,
      attempts: 0,
      idempotencyKey,
      content,
      projection: report,
      durationMs: 0,
    };
    run.toolCalls.push(result);
    return result;
  }

  /**
   * Runs the calls of a resumed run's last turn that have no Tool message yet. Only a model response's calls run
   * (the record says which messages are: see `MessageOrigin`); the calls of an assistant message a caller wrote
   * (`createRun`, `saveMessages`, a host's `appendMessages`) are answered `not_executed` and never dispatched.
   */
  private async resumePendingCalls(run: RunInProgress): Promise<void> {
    const last = lastTurnOf(run.messages);
    if (last === undefined) return;
    if (last.pending.length > 0) {
      await this.streams.get(run)?.resumedCalls(run.steps, run.turn, last.assistant.toolCalls, last.pending);
      const records = isModelResponse(last.assistant)
        ? await this.executeToolCalls(run, last.pending)
        : this.refuseCallerCalls(run, last.pending);
      await this.recordToolResults(run, records);
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
  private async recordInput(run: RunInProgress, input: readonly ChatMessage[]): Promise<void> {
    const open = openInputCalls(input);
    for (const message of open === undefined ? input : input.slice(0, open.at)) await this.recordMessage(run, message);
    if (open === undefined) return;
    run.turn = assistantMessagesOf(run);
    await this.recordToolResults(run, this.refuseCallerCalls(run, open.calls));
    for (const message of input.slice(open.at)) await this.recordMessage(run, message);
  }

  /** Refuses calls of caller-supplied history (`not_executed`, nothing runs); they join the run's calls. */
  private refuseCallerCalls(run: RunInProgress, calls: readonly ModelToolCall[]): ToolCallResult[] {
    const records = calls.map((call) => this.refuseToolCall(run, call, notExecutedOutcome(call)));
    run.toolCalls.push(...records);
    return records;
  }

  /**
   * Appends the Tool messages of a turn, in call order; in a durable run each admitted call's projection audit is
   * stored in the same transaction as its message, so the audit describes exactly the content the model gets.
   * When a call waits for a stored approval the turn is left open and the run suspends (`awaiting_approval`);
   * completed calls stay admitted, and their projection is audited when the turn is answered after the resume.
   */
  private async recordToolResults(run: RunInProgress, records: readonly ToolCallResult[]): Promise<void> {
    if (records.some((record) => record.awaitingApproval === true)) {
      run.stopReason = 'awaiting_approval';
      return;
    }
    for (const record of records)
      await this.recordMessage(run, toolMessageOf(record), record.admitted === true ? record.projection : undefined);
  }

  /**
   * A call a gate stopped: suspended for a stored decision, or refused (reported, then completed with the gate's
   * failure).
   */
  private async stopToolCall(
    run: RunInProgress,
    call: ModelToolCall,
    started: { readonly idempotencyKey: string; readonly startedAt: number; readonly request?: ToolCallRequest },
    gate: GateStop,
  ): Promise<ToolCallResult> {
    const { idempotencyKey, startedAt, request } = started;
    const args = request?.arguments;
    if (gate.kind === 'suspend')
      return completion.suspendedToolCall(this.stepContext(run), call, { idempotencyKey, args, startedAt });
    this.emit(run, {
      type: 'tool_call_refused',
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      outcome: gate.outcome,
    });
    return await this.completeToolCall(run, call, {
      outcome: gate.outcome,
      attempts: 0,
      idempotencyKey,
      startedAt,
      args,
      request,
      refused: true,
    });
  }

  /**
   * The run and this runner's steps, as the step functions get them: each step through its method here, so an override
   * is honoured.
   */
  private stepContext(run: RunInProgress): StepContext {
    return {
      run,
      emit: (event) => this.emit(run, event),
      hookFailed: (call, hook, error) =>
        this.emit(run, {
          type: 'hook_failed',
          runId: run.runId,
          callId: call.callId,
          turn: call.turn,
          toolName: call.toolName,
          hook,
          message: messageOf(error),
        }),
      project: (call, outcome) => this.projectForModel(run, call, outcome),
      validateOutput: (request, outcome) => this.validateOutput(run, request, outcome),
      dispatchAttempt: (call, attempt) => this.dispatchAttempt(run, call, attempt),
      retryAttempts: (call, first) => this.retryAttempts(run, call, first),
      compensate: (call, attempt, failure) => this.compensate(run, call, attempt, failure),
    };
  }
}
