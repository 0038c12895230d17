import { checkToolDescriptor } from '../contract/check-descriptor';
import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelToolCall } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { assertInvocable } from '../providers/composite-tool-provider';
import { ToolProviderError } from '../providers/tool-provider-error';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import { requestApprovalGate } from './call-approval';
import { checkedToolOf, checkTool, frozenModelTools } from './checked-tool';
import * as completion from './call-completion';
import * as dispatch from './call-dispatch';
import { checkedGate } from './gate-answer';
import { authorizeGate, checkCapabilitiesGate, checkPreconditionGate, declaredCapabilitiesGate, Gate, GateStop } from './call-gates';
import { neededCapabilityNames, refuse, resolveToolGate, validateArgumentsGate } from './call-gates';
import { callKey } from '../durable/record-rules';
import { deriveIdempotencyKey } from './idempotency-key';
import { RunRecorder } from './run-recorder';
import { rejectedWith } from './settled';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { checkProjectionPolicies, projectForModel } from './model-projection';
import { ToolCallRequest } from './run-options';
import { ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { LlmAgentEvent } from './runner-events';
import { PipelineSteps, RunStepContext, StartedCall } from './run-step-context';

export type { Gate, GateStop } from './call-gates';
export type { AdmittedCall, DispatchedCall } from './call-dispatch';
export type { CompletedCall, ModelProjection } from './call-completion';
export type { StepContext } from './step-context';

/**
 * The per-call path of Tool Contract 2.0, one protected method per policy step, in order: resolve
 * the tool, validate the arguments, check contract/provider capabilities, `allowToolCall`, approval,
 * resource-version precondition, dispatch under the deadline with bounded retries, `prepareToolResult`
 * and output validation, `onToolResult`, then project the Tool message for the model.
 * {@link LlmAgentRunner} adds the model loop and durability on top.
 *
 * Each step's body is a function of a step file (`call-gates`, `call-approval`, `call-dispatch`,
 * `call-completion`, `model-projection`); a step that calls another step calls this class's method,
 * so an override of one step is honoured by every other. Every gate answers a {@link Gate}.
 */
export abstract class ToolCallPipeline {
  protected readonly descriptors = new Map<string, ToolDescriptor>();
  protected readonly llmTools: readonly LlmTool[];
  /** The provider capabilities each tool's contract needs, worked out once per tool. */
  protected readonly neededCapabilities = new Map<string, readonly (keyof ToolProviderCapabilities)[]>();
  /** The step context made last (one per run; a run's steps ask for it many times in a row). */
  private lastStepContext: RunStepContext | undefined;
  /** The run policy and estimator `checkProjectionPolicies` last found to hold for every tool. */
  private lastCheckedProjection: { readonly policy: unknown; readonly estimator: unknown } | undefined;

  /**
   * Checks every tool the provider lists (contract, input and output schemas) once. A provider that
   * lists one name twice is refused (`ToolProviderError`, `duplicate_tool`): one of its contracts
   * (say, the one asking for approval) would otherwise be silently ignored.
   */
  constructor(readonly provider: ToolProvider) {
    assertInvocable(provider);
    const llmTools: LlmTool[] = [];
    const listed = provider.listTools();
    // An index over the usual array (no iterator per construction); any other iterable as it iterates.
    const tools = Array.isArray(listed) ? listed : [...listed];
    for (let index = 0; index < tools.length; index++) {
      const descriptor = tools[index];
      // An immutable descriptor that passed before is not checked again (see `checkedToolOf`).
      let checked = checkedToolOf(descriptor);
      if (checked === undefined) checkToolDescriptor(descriptor);
      if (this.descriptors.has(descriptor.name))
        throw new ToolProviderError('duplicate_tool', `the provider lists tool '${descriptor.name}' twice; which contract applies would be a guess`);
      checked ??= checkTool(descriptor);
      this.descriptors.set(descriptor.name, descriptor);
      this.neededCapabilities.set(descriptor.name, checked.neededCapabilities);
      llmTools.push(checked.llmTool);
    }
    this.llmTools = frozenModelTools(listed, llmTools);
  }

  /**
   * Runs the calls of one turn (`run.turn`) concurrently; the records come back in the order of the calls. A call
   * id that repeats within the turn is refused (`duplicate_call_id`, nothing runs) after its first
   * call, whose result alone the id could be bound to. When a call fails the run (a store error, a
   * lost lease), every other call of the turn is still awaited before the error is thrown, so no
   * work of the turn is left running unobserved.
   */
  protected executeToolCalls(run: RunState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    if (calls.length !== 1) return this.executeConcurrentToolCalls(run, calls);
    // The usual turn of one call: nothing to check for duplicates, nothing else to wait for, no async frame.
    let executing: Promise<ToolCallResult>;
    try {
      executing = this.executeToolCall(run, calls[0]);
    } catch (error) {
      return rejectedWith(error);
    }
    return Promise.resolve(executing).then((only) => {
      run.toolCalls.push(only);
      return [only];
    });
  }

  /** {@link executeToolCalls} for a turn of several calls (or none). */
  private async executeConcurrentToolCalls(run: RunState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const ids = new Set<string>();
    const settled = await Promise.allSettled(
      calls.map((call) => {
        if (!ids.has(call.id)) {
          ids.add(call.id);
          return this.executeToolCall(run, call);
        }
        const message = `another call of this turn already has the id '${call.id}'; this one was not run`;
        const outcome = toolFailure({ code: 'duplicate_call_id', category: 'validation', retryable: false, message });
        return Promise.resolve(this.refuseToolCall(run, call, outcome));
      }),
    );
    const records: ToolCallResult[] = [];
    for (const result of settled) {
      if (result.status === 'rejected') throw result.reason;
      records.push(result.value);
    }
    run.toolCalls.push(...records);
    return records;
  }

  /** A call refused before any step ran (nothing executes): reported, projected, never admitted. */
  protected refuseToolCall(run: RunState, call: ModelToolCall, outcome: ToolOutcome): ToolCallResult {
    this.emit(run, { type: 'tool_call_refused', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, outcome });
    const result = { outcome, attempts: 0, idempotencyKey: this.idempotencyKeyOf(run, call), startedAt: run.clock.now() };
    return completion.toolCallResult(this.stepContext(run), call, result);
  }

  /**
   * The per-call path: every gate in order, then dispatch, the finished outcome, and the result for the model.
   * The gates run synchronously while they answer synchronously (the usual case: no hook, no store); the
   * first asynchronous step continues in an `async` method, so a call pays for one suspended frame, not one per step.
   */
  protected executeToolCall(run: RunState, call: ModelToolCall): Promise<ToolCallResult> {
    try {
      const startedAt = run.clock.now();
      const key = this.idempotencyKeyOf(run, call);
      const resolved = checkedGate(this.resolveTool(run, call), 'resolveTool');
      if (resolved.kind !== 'continue') return settle(this.stopToolCall(run, call, key, startedAt, resolved));
      const descriptor = resolved.value;
      const validated = checkedGate(this.validateArguments(run, call, descriptor), 'validateArguments');
      if (validated.kind !== 'continue') return settle(this.stopToolCall(run, call, key, startedAt, validated));
      const request: ToolCallRequest = { runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, arguments: validated.value, descriptor };
      const started = new StartedCall(call, key, startedAt, request, this.stepContext(run));
      if (run.options.signal?.aborted) return settle(this.stopStarted(run, started, refuse(standardFailure('cancelled', 'the run was aborted before the tool started'))));
      const declared = declaredCapabilitiesGate(this.stepContext(run), this.provider, request);
      if (declared.kind !== 'continue') return settle(this.stopStarted(run, started, declared));
      const capabilities = declared.value;
      const capable = checkedGate(this.checkCapabilities(run, request, capabilities), 'checkCapabilities');
      if (capable.kind !== 'continue') return settle(this.stopStarted(run, started, capable));
      const authorizing = this.authorize(run, request);
      if (isPromiseLike(authorizing)) return this.afterAsyncGate(run, started, capabilities, authorizing, 'authorize');
      const authorized = checkedGate(authorizing, 'authorize');
      if (authorized.kind !== 'continue') return settle(this.stopStarted(run, started, authorized));
      return this.executeAuthorized(run, started, capabilities);
    } catch (error) {
      // A step that threw (an override, say) rejects the call with what it threw, as an async method's throw would.
      return rejectedWith(error);
    }
  }

  /** {@link executeToolCall} once an asynchronous gate (`allowToolCall`, or the approval) answered: then the steps after it. */
  private async afterAsyncGate(run: RunState, started: StartedCall, capabilities: ToolProviderCapabilities, gating: PromiseLike<Gate<void>>, gate: 'authorize' | 'approval'): Promise<ToolCallResult> {
    const answer = checkedGate(await gating, gate === 'authorize' ? 'authorize' : 'requestApproval');
    if (answer.kind !== 'continue') return this.stopStarted(run, started, answer);
    return gate === 'authorize' ? this.executeAuthorized(run, started, capabilities) : this.executeApproved(run, started, capabilities);
  }

  /** {@link executeToolCall} from the approval on. */
  private executeAuthorized(run: RunState, started: StartedCall, capabilities: ToolProviderCapabilities): Promise<ToolCallResult> {
    const approving = this.requestApproval(run, started.request);
    if (isPromiseLike(approving)) return this.afterAsyncGate(run, started, capabilities, approving, 'approval');
    const approved = checkedGate(approving, 'requestApproval');
    if (approved.kind !== 'continue') return settle(this.stopStarted(run, started, approved));
    return this.executeApproved(run, started, capabilities);
  }

  /** {@link executeToolCall} from the precondition on: the store's admission (when there is one), then dispatch. */
  private executeApproved(run: RunState, started: StartedCall, capabilities: ToolProviderCapabilities): Promise<ToolCallResult> {
    const precondition = checkedGate(this.checkPrecondition(run, started.request), 'checkPrecondition');
    if (precondition.kind !== 'continue') return settle(this.stopStarted(run, started, precondition));
    if (run.recorder !== undefined) return this.executeRecorded(run, run.recorder, started, capabilities);
    return this.dispatchStarted(run, started, capabilities);
  }

  /** A durable run's call: the store admits it first (or has its outcome already, or refuses it). */
  private async executeRecorded(run: RunState, recorder: RunRecorder, started: StartedCall, capabilities: ToolProviderCapabilities): Promise<ToolCallResult> {
    const { call, key, startedAt, request } = started;
    const beginning = await recorder.beginCall(request, key);
    if (beginning.kind === 'refuse') return this.stopStarted(run, started, beginning);
    if (beginning.kind !== 'execute')
      return this.completeToolCall(run, call, { outcome: beginning.outcome, attempts: beginning.attempts, idempotencyKey: key, startedAt, args: request.arguments, request, admitted: true });
    return this.dispatchStarted(run, started, capabilities);
  }

  /**
   * Dispatch (attempts, retries), then the finished outcome and the result. Chained with `then` where a
   * step is asynchronous, so a call carries no suspended frame of its own across the tool's await.
   */
  private dispatchStarted(run: RunState, started: StartedCall, capabilities: ToolProviderCapabilities): Promise<ToolCallResult> {
    const { call, key, request } = started;
    this.emit(run, { type: 'tool_call_started', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, arguments: request.arguments });
    const admitted: dispatch.AdmittedCall = { request, capabilities, idempotencyKey: key };
    const dispatched = this.dispatchWithRetries(run, admitted);
    if (!isPromiseLike(dispatched)) return settle(this.finishDispatched(run, started, dispatched.outcome, dispatched.attempts));
    return Promise.resolve(dispatched).then((done) => this.finishDispatched(run, started, done.outcome, done.attempts));
  }

  /** The dispatched outcome finished (`finishOutcome`) and completed into the call's result. */
  private finishDispatched(run: RunState, started: StartedCall, outcome: ToolOutcome, attempts: number): MaybePromise<ToolCallResult> {
    const { call, key, startedAt, request } = started;
    const finishing = this.finishOutcome(run, request, outcome);
    if (isPromiseLike(finishing))
      return Promise.resolve(finishing).then((finished) => this.completeToolCall(run, call, { outcome: finished, attempts, idempotencyKey: key, startedAt, args: request.arguments, request }));
    return this.completeToolCall(run, call, { outcome: finishing, attempts, idempotencyKey: key, startedAt, args: request.arguments, request });
  }

  /** A call with a validated request that a gate stopped. */
  private stopStarted(run: RunState, started: StartedCall, gate: GateStop): MaybePromise<ToolCallResult> {
    return this.stopToolCall(run, started.call, started.key, started.startedAt, gate, started.request);
  }

  /** A call a gate stopped: suspended for a stored decision, or refused (reported, then completed with the gate's failure). */
  private stopToolCall(run: RunState, call: ModelToolCall, idempotencyKey: string, startedAt: number, gate: GateStop, request?: ToolCallRequest): MaybePromise<ToolCallResult> {
    const args = request?.arguments;
    if (gate.kind === 'suspend') return completion.suspendedToolCall(this.stepContext(run), call, { idempotencyKey, args, startedAt });
    this.emit(run, { type: 'tool_call_refused', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, outcome: gate.outcome });
    return this.completeToolCall(run, call, { outcome: gate.outcome, attempts: 0, idempotencyKey, startedAt, args, request, refused: true });
  }

  /**
   * The idempotency key of a call of the run's current turn: the one the resumed record holds for it, else
   * {@link deriveIdempotencyKey} of (run, turn, call id). The turn is part of the key, so a model that reuses a
   * call id in a later turn (several OpenAI-compatible servers send `call_0` every turn) gets a fresh call.
   */
  protected idempotencyKeyOf(run: RunState, call: ModelToolCall): string {
    return run.recordedKeys?.get(callKey(run.turn, call.id)) ?? deriveIdempotencyKey(run.runId, run.turn, call.id);
  }

  /** Step 1: the tool must exist (`unknown_tool`). */
  protected resolveTool(_run: RunState, call: ModelToolCall): Gate<ToolDescriptor> {
    return resolveToolGate(this.descriptors, call);
  }

  /** Step 2: arguments must decode and match the input schema; each issue goes back by JSON Pointer. */
  protected validateArguments(run: RunState, call: ModelToolCall, descriptor: ToolDescriptor): Gate<JsonObject> {
    return validateArgumentsGate(this.stepContext(run), call, descriptor);
  }

  /** Step 3: the provider must declare every capability the contract needs for this tool (`capability_mismatch`). */
  protected checkCapabilities(_run: RunState, request: ToolCallRequest, declared: ToolProviderCapabilities): Gate<void> {
    const needed = this.neededCapabilities.get(request.toolName) ?? neededCapabilityNames(request.descriptor);
    return checkCapabilitiesGate(needed, request, declared);
  }

  /**
   * Step 4: host policy (`allowToolCall`). Fails closed: a throwing or rejecting hook refuses the
   * call; an abort of the run while the hook is pending refuses it as `cancelled`.
   */
  protected authorize(run: RunState, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return authorizeGate(this.stepContext(run), request);
  }

  /**
   * Step 5: approval per the contract's mode. A decision stored for this call (bound to its tool
   * name and argument hash) wins; otherwise the `approvalHandler` decides and the decision is stored.
   * Without a handler a durable run suspends (`{ kind: 'suspend' }`) and a run without a store is denied.
   */
  protected requestApproval(run: RunState, request: ToolCallRequest): MaybePromise<Gate<void>> {
    return requestApprovalGate(this.stepContext(run), request);
  }

  /** Step 6: a required expected resource version must be present in the arguments (`precondition_failed`). */
  protected checkPrecondition(_run: RunState, request: ToolCallRequest): Gate<void> {
    return checkPreconditionGate(request);
  }

  /** Steps 7 and 8: attempts (`dispatchAttempt`) under the deadline, retried (`retryAttempts`) only when the contract makes it safe. */
  protected dispatchWithRetries(run: RunState, call: dispatch.AdmittedCall): MaybePromise<dispatch.DispatchedCall> {
    return dispatch.dispatchWithRetries(this.stepContext(run), call);
  }

  /**
   * The retry loop after the first attempt: only when the contract makes a repeat safe; each attempt
   * through `dispatchAttempt`, compensation through `compensate`. When the run aborts where a retry
   * was due (before compensation or during the backoff), the call ends as `cancelled`; the last
   * attempt's error stays in `details.lastError` and its compensation state is kept. Attempts never
   * overlap: after an attempt whose tool ignored its aborted signal, the retry waits for it at most
   * `abandonedAttemptGraceMs` (default 5000), else the call ends with `details.abandonedAttempt: 'running'`.
   */
  protected retryAttempts(run: RunState, call: dispatch.AdmittedCall, first: MaybePromise<ToolOutcome>): Promise<dispatch.DispatchedCall> {
    return dispatch.retryAttempts(this.stepContext(run), call, first);
  }

  /** One attempt: builds the invocation (capability-guarded fields only) and runs it under the deadline. */
  protected dispatchAttempt(run: RunState, call: dispatch.AdmittedCall, attempt: number): MaybePromise<ToolOutcome> {
    return dispatch.dispatchAttempt(this.stepContext(run), this.provider, call, attempt);
  }

  /**
   * Asks the owning provider to undo a failed attempt's partial effect; the outcome records the
   * result. Compensation runs under the tool's declared timeout as its own hard deadline and stops
   * when the run aborts (its invocation's signal aborts; a compensation that ignores it is not
   * waited for): either way it counts as failed, so the call is not retried.
   */
  protected compensate(run: RunState, call: dispatch.AdmittedCall, attempt: number, failure: ToolOutcome): Promise<ToolOutcome> {
    return dispatch.compensate(this.stepContext(run), this.provider, call, attempt, failure);
  }

  /**
   * Step 9: `prepareToolResult`, output-schema validation (`validateOutput`), and the returned
   * resource version. When the hook throws or rejects, the outcome becomes a `tool_error` failure
   * that says the tool ran; the unprepared outcome is withheld, since the hook may exist to redact
   * it. So does a hook that returns something that is not an outcome (say `undefined`, from a forgotten `return`).
   */
  protected finishOutcome(run: RunState, request: ToolCallRequest, outcome: ToolOutcome): MaybePromise<ToolOutcome> {
    return completion.finishOutcome(this.stepContext(run), request, outcome);
  }

  /** Output validation: `strict` fails, `warning` records issues in metadata, `disabled` skips. */
  protected validateOutput(run: RunState, request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
    return completion.validateOutput(this.stepContext(run), request, outcome);
  }

  /**
   * Step 10: admission (before projection), `onToolResult` (a failing observer is reported, not
   * fatal), then the result projected by `projectForModel`; its projection audit is stored with its
   * Tool message (`recordToolResults`).
   */
  protected completeToolCall(run: RunState, call: ModelToolCall, result: completion.CompletedCall): MaybePromise<ToolCallResult> {
    return completion.completeToolCall(this.stepContext(run), call, result);
  }

  /**
   * The one place the model-facing Tool message is made: the rendered outcome, projected within the
   * effective ceilings. A projection failure becomes a short `tool_output_projection_failed` failure;
   * the failed content is never sent.
   */
  protected projectForModel(run: RunState, call: ModelToolCall, outcome: ToolOutcome): completion.ModelProjection {
    return projectForModel(this.stepContext(run), this.descriptors.get(call.name), call, outcome);
  }

  /** Before any model or tool call: every tool's effective projection policy must hold under the estimator. */
  protected checkProjectionPolicies(run: RunState): void {
    const policy = run.options.toolOutputProjection;
    const estimator = run.options.contextTokenEstimator;
    const last = this.lastCheckedProjection;
    if (last !== undefined && last.policy === policy && last.estimator === estimator) return;
    checkProjectionPolicies(run, this.descriptors.values());
    this.lastCheckedProjection = { policy, estimator };
  }

  /**
   * Delivers an event; a throwing handler does not disturb the run, nor does an async one that
   * rejects (its rejection is caught, so it cannot become an unhandled rejection that ends the process).
   */
  protected emit(run: RunState, event: LlmAgentEvent): void {
    const handler = run.options.onEvent;
    if (handler === undefined) return;
    try {
      ignoreRejection(handler(event));
    } catch {
      // Observers must not change what runs.
    }
  }

  /** The run and this pipeline's steps, as step functions get them; one per run. */
  private stepContext(run: RunState): RunStepContext {
    const last = this.lastStepContext;
    if (last !== undefined && last.run === run) return last;
    // Contexts hold nothing but the run and this pipeline: one made again for an interleaved run is as good.
    const context = new RunStepContext(run, this.boundSteps);
    this.lastStepContext = context;
    return context;
  }

  /** This pipeline's overridable steps with the run as an argument, made once per pipeline (no closure per run or call). */
  private readonly boundSteps: PipelineSteps = new ToolCallPipeline.Steps(this);

  /** {@link PipelineSteps} on a prototype: each calls the pipeline's method of that step (an override is honoured), one object per pipeline. */
  private static readonly Steps = class implements PipelineSteps {
    constructor(private readonly pipeline: ToolCallPipeline) {}
    emit(run: RunState, event: LlmAgentEvent): void {
      this.pipeline.emit(run, event);
    }
    project(run: RunState, call: ModelToolCall, outcome: ToolOutcome): completion.ModelProjection {
      return this.pipeline.projectForModel(run, call, outcome);
    }
    validateOutput(run: RunState, request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
      return this.pipeline.validateOutput(run, request, outcome);
    }
    dispatchAttempt(run: RunState, call: dispatch.AdmittedCall, attempt: number): MaybePromise<ToolOutcome> {
      return this.pipeline.dispatchAttempt(run, call, attempt);
    }
    retryAttempts(run: RunState, call: dispatch.AdmittedCall, first: MaybePromise<ToolOutcome>): Promise<dispatch.DispatchedCall> {
      return this.pipeline.retryAttempts(run, call, first);
    }
    compensate(run: RunState, call: dispatch.AdmittedCall, attempt: number, failure: ToolOutcome): Promise<ToolOutcome> {
      return this.pipeline.compensate(run, call, attempt, failure);
    }
    finishDispatched(run: RunState, started: StartedCall, outcome: ToolOutcome, attempts: number): MaybePromise<ToolCallResult> {
      return this.pipeline.finishDispatched(run, started, outcome, attempts);
    }
  };
}

/** Catches the rejection of an observer that returned a promise although none is awaited. */
function ignoreRejection(value: unknown): void {
  if (isPromiseLike(value)) value.then(undefined, () => undefined);
}

/** A result as a promise (the one given, when it is one). */
function settle(result: MaybePromise<ToolCallResult>): Promise<ToolCallResult> {
  return Promise.resolve(result);
}
