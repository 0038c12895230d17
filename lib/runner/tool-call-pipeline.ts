import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelToolCall } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import { messageOf } from '../errors/message-of';
import { requestApprovalGate } from './call-approval';
import { checkProviderTools } from './checked-tool';
import * as completion from './call-completion';
import * as dispatch from './call-dispatch';
import { checkedGate } from './gate-answer';
import { authorizeGate, checkCapabilitiesGate, checkPreconditionGate, declaredCapabilitiesGate, Gate, GateStop } from './call-gates';
import { neededCapabilityNames, refuse, resolveToolGate, validateArgumentsGate } from './call-gates';
import { callKey } from '../durable/record-rules';
import { deriveIdempotencyKey } from './idempotency-key';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { checkProjectionPolicies, projectForModel } from './model-projection';
import { ToolCallRequest } from './run-options';
import { ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { LlmAgentEvent } from './runner-events';
import { StepContext } from './step-context';

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

  /**
   * Checks every tool the provider lists (contract, input and output schemas) once. A provider that
   * lists one name twice is refused (`ToolProviderError`, `duplicate_tool`): one of its contracts
   * (say, the one asking for approval) would otherwise be silently ignored.
   */
  constructor(readonly provider: ToolProvider) {
    const llmTools: LlmTool[] = [];
    for (const checked of checkProviderTools(provider)) {
      this.descriptors.set(checked.descriptor.name, checked.descriptor);
      this.neededCapabilities.set(checked.descriptor.name, checked.neededCapabilities);
      llmTools.push(checked.llmTool);
    }
    this.llmTools = Object.freeze(llmTools);
  }

  /**
   * Runs the calls of one turn (`run.turn`) concurrently; the records come back in the order of the calls. A call
   * id that repeats within the turn is refused (`duplicate_call_id`, nothing runs) after its first
   * call, whose result alone the id could be bound to. When a call fails the run (a store error, a
   * lost lease), every other call of the turn is still awaited before the error is thrown, so no
   * work of the turn is left running unobserved.
   */
  protected async executeToolCalls(run: RunState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const ids = new Set<string>();
    const settled = await Promise.allSettled(
      calls.map(async (call) => {
        if (!ids.has(call.id)) {
          ids.add(call.id);
          return await this.executeToolCall(run, call);
        }
        const message = `another call of this turn already has the id '${call.id}'; this one was not run`;
        return this.refuseToolCall(run, call, toolFailure({ code: 'duplicate_call_id', category: 'validation', retryable: false, message }));
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
   * The per-call path, the numbered steps in order; each gate answers a {@link Gate}, and the first that
   * does not continue stops the call (refused, reported and completed with its failure; or suspended).
   * A durable run's store admits the call before it is dispatched (or has its outcome already, or refuses it).
   */
  protected async executeToolCall(run: RunState, call: ModelToolCall): Promise<ToolCallResult> {
    const startedAt = run.clock.now();
    const idempotencyKey = this.idempotencyKeyOf(run, call);
    const stop = (gate: GateStop, request?: ToolCallRequest): Promise<ToolCallResult> => this.stopToolCall(run, call, idempotencyKey, startedAt, gate, request);
    // 1. The tool must exist.
    const resolved = checkedGate(this.resolveTool(run, call), 'resolveTool');
    if (resolved.kind !== 'continue') return stop(resolved);
    const descriptor = resolved.value;
    // 2. The arguments must decode and match the input schema.
    const validated = checkedGate(this.validateArguments(run, call, descriptor), 'validateArguments');
    if (validated.kind !== 'continue') return stop(validated);
    const request: ToolCallRequest = { runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, arguments: validated.value, descriptor };
    if (run.options.signal?.aborted) return stop(refuse(standardFailure('cancelled', 'the run was aborted before the tool started')), request);
    // 3. The provider must declare the capabilities the contract needs.
    const declared = this.declaredCapabilities(run, request);
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
    const completed = { idempotencyKey, startedAt, args: request.arguments, request };
    if (run.recorder !== undefined) {
      const beginning = await run.recorder.beginCall(request, idempotencyKey);
      if (beginning.kind === 'refuse') return stop(beginning, request);
      if (beginning.kind !== 'execute') return await this.completeToolCall(run, call, { ...completed, outcome: beginning.outcome, attempts: beginning.attempts, admitted: true });
    }
    this.emit(run, { type: 'tool_call_started', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, arguments: request.arguments });
    // 7 and 8. Attempts under the deadline, retried only when the contract makes it safe.
    const dispatched = await this.dispatchWithRetries(run, { request, capabilities, idempotencyKey });
    // 9. `prepareToolResult`, output validation, the returned resource version.
    const outcome = await this.finishOutcome(run, request, dispatched.outcome);
    // 10. Admission, `onToolResult`, the projected result.
    return await this.completeToolCall(run, call, { ...completed, outcome, attempts: dispatched.attempts });
  }

  /** A call a gate stopped: suspended for a stored decision, or refused (reported, then completed with the gate's failure). */
  private async stopToolCall(run: RunState, call: ModelToolCall, idempotencyKey: string, startedAt: number, gate: GateStop, request?: ToolCallRequest): Promise<ToolCallResult> {
    const args = request?.arguments;
    if (gate.kind === 'suspend') return completion.suspendedToolCall(this.stepContext(run), call, { idempotencyKey, args, startedAt });
    this.emit(run, { type: 'tool_call_refused', runId: run.runId, callId: call.id, turn: run.turn, toolName: call.name, outcome: gate.outcome });
    return await this.completeToolCall(run, call, { outcome: gate.outcome, attempts: 0, idempotencyKey, startedAt, args, request, refused: true });
  }

  /** The capabilities the provider declares for the tool (`capability_mismatch` when asking it throws). */
  private declaredCapabilities(run: RunState, request: ToolCallRequest): Gate<ToolProviderCapabilities> {
    return declaredCapabilitiesGate(this.stepContext(run), this.provider, request);
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
    checkProjectionPolicies(run, this.descriptors.values());
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

  /** The run and this pipeline's steps, as the step functions get them: each step through its method here, so an override is honoured. */
  private stepContext(run: RunState): StepContext {
    return {
      run,
      emit: (event) => this.emit(run, event),
      hookFailed: (call, hook, error) =>
        this.emit(run, { type: 'hook_failed', runId: run.runId, callId: call.callId, turn: call.turn, toolName: call.toolName, hook, message: messageOf(error) }),
      project: (call, outcome) => this.projectForModel(run, call, outcome),
      validateOutput: (request, outcome) => this.validateOutput(run, request, outcome),
      dispatchAttempt: (call, attempt) => this.dispatchAttempt(run, call, attempt),
      retryAttempts: (call, first) => this.retryAttempts(run, call, first),
      compensate: (call, attempt, failure) => this.compensate(run, call, attempt, failure),
    };
  }
}

/** Catches the rejection of an observer that returned a promise although none is awaited. */
function ignoreRejection(value: unknown): void {
  if (isPromiseLike(value)) value.then(undefined, () => undefined);
}
