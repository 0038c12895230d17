import { mergeOwn } from '../outcome/merge-own';
import { agentTool } from '../agents/agent-tool';
import type { AgentToolOptions } from '../agents/agent-tool-options';
import { suspendedOnChild } from '../agents/parent-run-link';
import { callKey } from '../durable/rules/value-rules';
import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { InMemoryMemory, Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { ChatMessage, ModelResponse, ModelToolCall } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import type { ToolCallResultOf } from '../tools/tool-typing';
import { MaybePromise } from './maybe-promise';
import { newRunId } from './new-run-id';
import { emitTo, recordMessageIn, requestModelStep, runModelStep } from './run-steps';
import { completeRun, invokeOneCall, resumeRun, resumeStreamed, startRun } from './run-entry';
import { inputMessages, LlmAgentRunInput } from './run-input';
import { InvokeToolCallOptions, LlmAgentRunOptions, ToolCallRequest } from './run-options';
import { LlmAgentRunResult, ToolCallResult } from './run-result';
import { RunInProgress } from './run-state';
import { LlmAgentError } from './runner-error';
import { LlmAgentEvent } from './runner-events';
import { LlmAgentRunnerOptions } from './runner-options';
import { compileHandoffs, registerHandoffAgent } from './handoff/handoff-agents';
import { withTransferTools } from './handoff/transfer-tools';
import { runResultOf } from './run-lifecycle';
import { openRunStream } from './stream/open-run-stream';
import { LlmAgentRunStream } from './stream/stream-events';
import { drainedResult, keptStreamOf } from './stream/keep-run-events';
import { StructuredOutputOf, StructuredOutputSchema } from './structured-output/structured-output';
import { requestApprovalGate } from './tool-call/call-approval';
import { completeToolCall, finishOutcome, validateOutput } from './tool-call/call-completion';
import { compensate } from './tool-call/call-compensation';
import { dispatchAttempt, dispatchWithRetries } from './tool-call/call-dispatch';
import {
  authorizeGate,
  checkCapabilitiesGate,
  checkPreconditionGate,
  declaredCapabilitiesGate,
  Gate,
  isWellFormedCall,
  malformedCallRefusal,
  neededCapabilityNames,
  refuse,
  validateArgumentsGate,
} from './tool-call/call-gates';
import { budgetToolCallGate, resolveActiveToolGate } from './run-control/tool-call-control';
import { dispatchGate, guardAfterOutcome, guardBeforeDispatch } from './run-control/guardrails/tool-guardrails';
import type { OutputRunOptions } from './run-control/guardrails/guardrail-types';
import { keyRemaining } from './run-control/budget/key-budget';
import { retryAttempts } from './tool-call/call-retries';
import { hookFailedEvent, refusedToolCall, stopToolCall } from './tool-call/call-stop';
import { deriveIdempotencyKey } from './tool-call/idempotency-key';
import { AdmittedCall, CompletedCall, DispatchedCall, ModelProjection } from './tool-call/call-types';
import { checkedGate } from './tool-call/gate-answer';
import { projectForModel } from './tool-call/model-projection';
import { StepContext } from './tool-call/step-context';
import { checkProviderTools } from './tool-call/checked-tool';

/**
 * Turns model tool calls into safe tool executions under Tool Contract 2.0: one template, whose
 * protected methods are the steps a subclass can override. Per call (`executeToolCall`), in order:
 * 1 `resolveTool`, 2 `validateArguments`, 3 `checkCapabilities`, 4 `authorize`, 5 `requestApproval`,
 * 6 `checkPrecondition` (then the tool's `before` guardrails, the budget, `maxCalls`), 7 and 8
 * `dispatchWithRetries` (`dispatchAttempt`, `retryAttempts`, `compensate`), 9 `finishOutcome` (`validateOutput`;
 * then the tool's `after` guardrails), 10 `completeToolCall` (`projectForModel`). Per run: `runStep`
 * (`requestModel`, `recordMessage`, `refuseIncompleteToolCalls`) until a stop reason, then `finishRun`.
 * Every step that needs another calls its method here (through the runner's step context), so an
 * override is honoured everywhere; the bodies of the default steps are functions of `tool-call/`,
 * `structured-output/`, `stream/` and `durable/`.
 *
 * `Call` types the calls of a result; `bindTools` and a `ReflectedToolProvider` infer it from their
 * tools (`Tools`, see {@link ToolCallResultOf}), any other provider leaves it untyped.
 */
export class LlmAgentRunner<Tools = unknown, Call extends ToolCallResult = ToolCallResultOf<Tools>> {
  private readonly descriptors = new Map<string, ToolDescriptor>();
  private readonly llmTools: readonly LlmTool[];
  private readonly neededCapabilities = new Map<string, readonly (keyof ToolProviderCapabilities)[]>();
  /** The provider's tools and the transfer tools of `handoffs`: what this runner's calls dispatch to. */
  private readonly tools: ToolProvider;
  protected readonly defaultMemory: Memory = new InMemoryMemory();
  /** This runner's steps, as the step functions call them. */
  private readonly steps: StepContext = this.stepContext();

  /**
   * Checks every tool the provider lists (contract, input and output schemas). A provider that lists
   * one name twice is refused (`ToolProviderError`, `duplicate_tool`): one of its contracts (say, the
   * one asking for approval) would otherwise be silently ignored. `handoffs` add a transfer tool each (checked here:
   * `HandoffError` `invalid_handoff`).
   */
  constructor(
    readonly model: ModelStepper,
    readonly provider: ToolProvider & { readonly reflectedClasses?: readonly Tools[] },
    protected readonly defaults: LlmAgentRunnerOptions = {},
  ) {
    const handoffs = compileHandoffs(defaults.name, defaults.handoffs, provider);
    this.tools = withTransferTools(provider, defaults.name, handoffs);
    const checked = checkProviderTools(this.tools);
    for (const tool of checked) {
      this.descriptors.set(tool.descriptor.name, tool.descriptor);
      this.neededCapabilities.set(tool.descriptor.name, tool.neededCapabilities);
    }
    this.llmTools = Object.freeze(checked.map((tool) => tool.llmTool));
    const toolNames = new Set(this.descriptors.keys());
    registerHandoffAgent(this, { steps: this.steps, defaults, toolNames, handoffs, memory: () => this.defaultMemory });
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
    options: OutputRunOptions<S>,
  ): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  complete(input: LlmAgentRunInput, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async complete(input: LlmAgentRunInput, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    if (options.keepEvents !== undefined || this.defaults.keepEvents !== undefined)
      return (await drainedResult(this.stream(input, options))) as LlmAgentRunResult<Call>;
    const messages = inputMessages(input);
    // the calls are those of the provider `Tools` was inferred from
    return (await completeRun(
      this.steps,
      this.startRun(options),
      messages,
      this.defaultMemory,
    )) as LlmAgentRunResult<Call>;
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
    run.stream = channel;
    channel.bind(() => completeRun(this.steps, run, messages, this.defaultMemory));
    return keptStreamOf(channel, mergeOwn(this.defaults, options));
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
    options: OutputRunOptions<S>,
  ): Promise<LlmAgentRunResult<Call, StructuredOutputOf<S>>>;
  resume(runId: string, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult<Call>>;
  async resume(runId: string, options: LlmAgentRunOptions = {}): Promise<LlmAgentRunResult<Call>> {
    const store = options.store ?? this.defaults.store;
    if (store === undefined) throw new LlmAgentError('invalid_run_options', 'resume() needs a store');
    if (options.keepEvents !== undefined || this.defaults.keepEvents !== undefined)
      return (await drainedResult(this.resumeStream(runId, options))) as LlmAgentRunResult<Call>;
    // Whether the run exists; its chain is verified once, by the leased read the resume continues from.
    if ((await store.exportRun(runId)) === undefined)
      throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
    const run = this.startRun(mergeOwn(options, { store, runId }));
    return (await resumeRun(this.steps, run, this.defaultMemory)) as LlmAgentRunResult<Call>;
  }

  /**
   * Resumes like `resume()` (the same rules, the same durable record) and streams it like `stream()`: the
   * calls of the resumed turn still without a Tool message are reported started and finished as they run,
   * then every model step streams. Invalid options (no store among them) throw here; a run the store
   * does not have, or cannot resume, ends the iteration with `run_conflict` after `run_started`.
   */
  resumeStream(runId: string, options: LlmAgentRunOptions = {}): LlmAgentRunStream {
    return resumeStreamed(this.steps, runId, options, this.defaults, this.defaultMemory, (runOptions) =>
      this.startRun(runOptions),
    );
  }

  /** This runner as one tool of another runner: each call runs a child run (see {@link agents!agentTool}). */
  asTool(options: AgentToolOptions): ToolProvider {
    return agentTool(this, options);
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
    return invokeOneCall(this.steps, call, options, (runOptions) => this.startRun(runOptions));
  }

  /**
   * The per-call path, the numbered steps in order; each gate answers a {@link Gate} (checked: anything else is
   * `invalid_step_answer`), and the first that does not continue stops the call: refused (reported, then completed
   * with its failure) or suspended. A durable run's store admits the call before it is dispatched (or has its
   * outcome already, or refuses it). A gate that answers at once is not awaited.
   */
  protected async executeToolCall(run: RunInProgress, call: ModelToolCall): Promise<ToolCallResult> {
    const start = { call, startedAt: run.clock.now(), idempotencyKey: this.idempotencyKeyOf(run, call) };
    if (!isWellFormedCall(call)) return stopToolCall(this.steps, run, start, malformedCallRefusal(call));
    // 1. The tool must exist.
    const resolved = checkedGate(this.resolveTool(run, call), 'resolveTool');
    if (resolved.kind !== 'continue') return stopToolCall(this.steps, run, start, resolved);
    const descriptor = resolved.value;
    // 2. The arguments must decode and match the input schema.
    const validated = checkedGate(this.validateArguments(run, call, descriptor), 'validateArguments');
    if (validated.kind !== 'continue') return stopToolCall(this.steps, run, start, validated);
    const request: ToolCallRequest = {
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      arguments: validated.value,
      descriptor,
    };
    if (run.options.signal?.aborted) {
      const aborted = refuse(standardFailure('cancelled', 'the run was aborted before the tool started'));
      return stopToolCall(this.steps, run, start, aborted, request);
    }
    // 3. The provider must declare every capability the contract needs.
    const declared = declaredCapabilitiesGate(this.steps, run, this.tools, request);
    if (declared.kind !== 'continue') return stopToolCall(this.steps, run, start, declared, request);
    const capabilities = declared.value;
    const capable = checkedGate(this.checkCapabilities(run, request, capabilities), 'checkCapabilities');
    if (capable.kind !== 'continue') return stopToolCall(this.steps, run, start, capable, request);
    // 4. Host policy.
    const authorized = checkedGate(await this.authorize(run, request), 'authorize');
    if (authorized.kind !== 'continue') return stopToolCall(this.steps, run, start, authorized, request);
    // 5. Approval.
    const approved = checkedGate(await this.requestApproval(run, request), 'requestApproval');
    if (approved.kind !== 'continue') return stopToolCall(this.steps, run, start, approved, request);
    // 6. The resource-version precondition.
    const precondition = checkedGate(this.checkPrecondition(run, request), 'checkPrecondition');
    if (precondition.kind !== 'continue') return stopToolCall(this.steps, run, start, precondition, request);
    // 6a. The tool's `before` guardrails.
    const guarded = await guardBeforeDispatch(this.steps, run, request);
    if (guarded.kind !== 'continue') return stopToolCall(this.steps, run, start, guarded, request);
    // 6b. The run's budget (`budget.maxToolCalls`, and no other limit already reached) and its budget key's.
    const budgeted = await budgetToolCallGate(this.steps, run, request);
    if (budgeted.kind !== 'continue') return stopToolCall(this.steps, run, start, budgeted, request);
    // 6c. No guardrail tripped the run, and the contract's `maxCalls` allows the call.
    const dispatchable = dispatchGate(run, request);
    if (dispatchable.kind !== 'continue') return stopToolCall(this.steps, run, start, dispatchable, request);
    const { idempotencyKey, startedAt } = start;
    const begun = { idempotencyKey, startedAt, args: request.arguments, request };
    if (run.recorder !== undefined) {
      const beginning = await run.recorder.beginCall(request, idempotencyKey);
      if (beginning.kind === 'refuse') return stopToolCall(this.steps, run, start, beginning, request);
      if (beginning.kind !== 'execute') {
        const { outcome, attempts } = beginning;
        const shown = await guardAfterOutcome(this.steps, run, request, outcome);
        return await this.completeToolCall(run, call, mergeOwn(begun, { outcome, attempts, admitted: true }, shown));
      }
    }
    const { runId, turn } = run;
    const { arguments: args } = request;
    this.emit(run, { type: 'tool_call_started', runId, callId: call.id, turn, toolName: call.name, arguments: args });
    // 7 and 8. Attempts under the deadline, retried only when the contract makes it safe.
    const dispatched = await this.dispatchWithRetries(run, { request, capabilities, idempotencyKey });
    const onChild = suspendedOnChild(run, call, { idempotencyKey, startedAt, args: request.arguments });
    if (onChild !== undefined) return onChild;
    // 9. `prepareToolResult`, output validation, the returned resource version.
    const outcome = await this.finishOutcome(run, request, dispatched.outcome);
    // 9b. The tool's `after` guardrails: what the model is shown instead of the outcome, if anything.
    const shown = await guardAfterOutcome(this.steps, run, request, outcome);
    // 10. Admission, `onToolResult`, the result projected for the model.
    return await this.completeToolCall(run, call, mergeOwn(begun, { outcome, attempts: dispatched.attempts }, shown));
  }

  /** A call refused before any step ran (nothing executes): reported, projected, never admitted. */
  protected refuseToolCall(run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome): ToolCallResult {
    return refusedToolCall(
      this.steps,
      run,
      { call, startedAt: run.clock.now(), idempotencyKey: this.idempotencyKeyOf(run, call) },
      outcome,
    );
  }

  /**
   * The idempotency key of a call of the run's current turn: the one the resumed record holds for it, else
   * {@link deriveIdempotencyKey} of (run, turn, call id). The turn is part of the key, so a model that reuses a
   * call id in a later turn (several OpenAI-compatible servers send `call_0` every turn) gets a fresh call.
   */
  protected idempotencyKeyOf(run: RunInProgress, call: ModelToolCall): string {
    return run.recordedKeys?.get(callKey(run.turn, call.id)) ?? deriveIdempotencyKey(run.runId, run.turn, call.id);
  }

  /** Step 1: the tool must exist (`unknown_tool`) and be active in its step (`tool_not_active`). */
  protected resolveTool(run: RunInProgress, call: ModelToolCall): Gate<ToolDescriptor> {
    return resolveActiveToolGate(run, this.descriptors, call);
  }

  /** Step 2: arguments must decode and match the input schema; each issue goes back by JSON Pointer. */
  protected validateArguments(run: RunInProgress, call: ModelToolCall, descriptor: ToolDescriptor): Gate<JsonObject> {
    return validateArgumentsGate(run, call, descriptor);
  }

  /** Step 3: the provider must declare every capability the contract needs for this tool (`capability_mismatch`). */
  protected checkCapabilities(
    _run: RunInProgress,
    request: ToolCallRequest,
    declared: ToolProviderCapabilities,
  ): Gate<void> {
    const needed = this.neededCapabilities.get(request.toolName) ?? neededCapabilityNames(request.descriptor);
    return checkCapabilitiesGate(needed, request, declared);
  }

  /**
   * Step 4: host policy (`allowToolCall`). Fails closed: a throwing or rejecting hook refuses the
   * call; an abort of the run while the hook is pending refuses it as `cancelled`.
   */
  protected authorize(run: RunInProgress, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return authorizeGate(this.steps, run, request);
  }

  /**
   * Step 5: approval per the contract's mode. A decision stored for this call (bound to its tool
   * name and argument hash) wins; otherwise the `approvalHandler` decides and the decision is stored.
   * Without a handler a durable run suspends (`{ kind: 'suspend' }`) and a run without a store is denied.
   * A throwing or rejecting handler denies (fail closed); an abort while it is pending is `cancelled`.
   */
  protected requestApproval(run: RunInProgress, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return requestApprovalGate(this.steps, run, request);
  }

  /** Step 6: a required expected resource version must be present in the arguments (`precondition_failed`). */
  protected checkPrecondition(_run: RunInProgress, request: ToolCallRequest): Gate<void> {
    return checkPreconditionGate(request);
  }

  /**
   * Steps 7 and 8: the first attempt (`dispatchAttempt`) under the deadline, then `retryAttempts` when it failed and
   * the contract allows more.
   */
  protected dispatchWithRetries(run: RunInProgress, call: AdmittedCall): MaybePromise<DispatchedCall> {
    return dispatchWithRetries(this.steps, run, call);
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
    call: AdmittedCall,
    first: MaybePromise<ToolOutcome>,
  ): Promise<DispatchedCall> {
    return retryAttempts(this.steps, run, call, first);
  }

  /** One attempt: builds the invocation (capability-guarded fields only) and runs it under the deadline. */
  protected dispatchAttempt(run: RunInProgress, call: AdmittedCall, attempt: number): MaybePromise<ToolOutcome> {
    return dispatchAttempt(this.steps, run, this.tools, call, attempt);
  }

  /**
   * Asks the owning provider to undo a failed attempt's partial effect; the outcome records the
   * result. Compensation runs under the tool's declared timeout as its own hard deadline and stops
   * when the run aborts (its invocation's signal aborts; a compensation that ignores it is not
   * waited for): either way it counts as failed, so the call is not retried.
   */
  protected compensate(
    run: RunInProgress,
    call: AdmittedCall,
    attempt: number,
    failure: ToolOutcome,
  ): Promise<ToolOutcome> {
    return compensate(this.steps, run, this.tools, call, attempt, failure);
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
    return finishOutcome(this.steps, run, request, outcome);
  }

  /** Output validation: `strict` fails, `warning` records issues in metadata, `disabled` skips. */
  protected validateOutput(run: RunInProgress, request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
    return validateOutput(this.steps, run, request, outcome);
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
    result: CompletedCall,
  ): MaybePromise<ToolCallResult> {
    return completeToolCall(this.steps, run, call, result);
  }

  /**
   * The one place the model-facing Tool message is made: the rendered outcome, projected within the
   * effective ceilings of the tool's policy, and its images within the run's `toolImages` limits. A
   * projection failure becomes a short `tool_output_projection_failed` failure; the failed content is never sent.
   */
  protected projectForModel(run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome): ModelProjection {
    return projectForModel(this.steps, run, this.descriptors.get(call.name), call, outcome);
  }

  /**
   * Delivers an event; a throwing handler does not disturb the run, nor does an async one that
   * rejects (its rejection is caught, so it cannot become an unhandled rejection that ends the process).
   */
  protected emit(run: RunInProgress, event: LlmAgentEvent): void {
    emitTo(run.options.onEvent, event);
  }

  /**
   * One model request and the tool calls it asked for: the answer recorded, its turn begun, its calls run
   * (or refused, when the answer was cut at its token limit) and their Tool messages recorded. A request cut
   * short by the run's abort stops the run as `aborted`; any other failure fails it.
   */
  protected runStep(run: RunInProgress): Promise<void> {
    return runModelStep(this.steps, run);
  }

  /**
   * Sends the conversation to the model (`step()`, or in a run of `stream()` a streamed step whose deltas reach
   * the stream as they arrive), its usage counted; when the run aborts first, rejects at once with the abort reason.
   */
  protected requestModel(run: RunInProgress): Promise<ModelResponse> {
    return requestModelStep(this.steps, run, this.model, this.llmTools);
  }

  /**
   * Appends a message to the history, the durable record (first) and the memory; a Tool message's projection audit,
   * when given, is stored with it.
   */
  protected recordMessage(
    run: RunInProgress,
    message: ChatMessage,
    projection?: ToolOutputProjectionReport,
  ): Promise<void> {
    return recordMessageIn(run, message, projection, run.options.memory ?? this.defaultMemory);
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
    const budgetRemaining = run.control?.ledger?.remaining(run.clock.now());
    const keyState = run.control?.keyBudget?.state;
    this.emit(run, {
      type: 'run_finished',
      runId: run.runId,
      stopReason,
      ...(budgetRemaining === undefined ? {} : { budgetRemaining }),
      ...(keyState === undefined ? {} : { keyBudgetRemaining: keyRemaining(keyState) }),
    });
    return runResultOf(run, stopReason, run.output?.accepted);
  }

  /** A new run from the merged options: its output compiled, its projection policies checked, `run_started` sent. */
  private startRun(options: LlmAgentRunOptions): RunInProgress {
    return startRun(this.steps, { model: this.model, defaults: this.defaults, descriptors: this.descriptors }, options);
  }

  /** The runner's steps for the step functions: each through its method here, so an override is honoured. */
  private stepContext(): StepContext {
    return {
      emit: (run, event) => this.emit(run, event),
      hookFailed: (run, call, hook, error) => this.emit(run, hookFailedEvent(run, call, hook, error)),
      projectForModel: (run, call, outcome) => this.projectForModel(run, call, outcome),
      validateOutput: (run, request, outcome) => this.validateOutput(run, request, outcome),
      dispatchAttempt: (run, call, attempt) => this.dispatchAttempt(run, call, attempt),
      retryAttempts: (run, call, first) => this.retryAttempts(run, call, first),
      compensate: (run, call, attempt, failure) => this.compensate(run, call, attempt, failure),
      completeToolCall: (run, call, result) => this.completeToolCall(run, call, result),
      executeToolCall: (run, call) => this.executeToolCall(run, call),
      refuseToolCall: (run, call, outcome) => this.refuseToolCall(run, call, outcome),
      runStep: (run) => this.runStep(run),
      requestModel: (run) => this.requestModel(run),
      recordMessage: (run, message, projection) => this.recordMessage(run, message, projection),
      refuseIncompleteToolCalls: (run, calls) => this.refuseIncompleteToolCalls(run, calls),
      finishRun: (run) => this.finishRun(run),
    };
  }
}
