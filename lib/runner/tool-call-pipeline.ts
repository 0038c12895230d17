import { checkToolDescriptor, toLlmTool } from '../contract/check-descriptor';
import { requiredCapabilities } from '../contract/compile-descriptor';
import { NO_CAPABILITIES } from '../contract/defaults';
import { computeRetryDelayMs } from '../contract/retry-delay';
import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor, ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { ModelToolCall } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { isToolOutcome, standardFailure, toolFailure, ToolOutcome, toolText } from '../outcome/tool-outcome';
import { assertInvocable } from '../providers/composite-tool-provider';
import { ToolInvocation } from '../providers/tool-invocation';
import { ToolProviderError } from '../providers/tool-provider-error';
import { CompensationResult, ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import { formatIssues } from '../tools/tool-argument-error';
import { checkToolOutputProjectionPolicy } from '../projection/check-tool-output-projection-policy';
import { DEFAULT_TOOL_OUTPUT_PROJECTION } from '../projection/default-tool-output-projection';
import { effectiveToolOutputProjection } from '../projection/effective-tool-output-projection';
import { tryProjectToolOutputForModel } from '../projection/project-tool-output-for-model';
import { renderToolMessage } from '../outcome/render-tool-message';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-limits';
import { decodeToolArguments } from '../validation/decode-arguments';
import { compileInputValidator, compileOutputValidator } from '../validation/schema-validator';
import { resolveJsonPointer } from '../validation/validation-issue';
import { deriveIdempotencyKey } from './idempotency-key';
import { ToolApprovalDecision, ToolCallPermission, ToolCallRequest } from './run-options';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { runToolAttempt } from './run-tool-attempt';
import { callHook, HookResult, messageOf } from './call-hook';
import { CallBeginning } from './run-recorder';
import { needsApproval, withResourceVersion } from './runner-rules';
import { LlmAgentEvent, LlmAgentHookName } from './runner-events';
import { sleepOnClock } from './runner-clock';

/** Result of a step that either yields a value or refuses the call with a failure for the model. */
export type StepResult<T> = { readonly kind: 'continue'; readonly value: T } | { readonly kind: 'refuse'; readonly outcome: ToolOutcome };

/** A finished call on its way to the model. */
export interface CompletedCall {
  readonly outcome: ToolOutcome;
  readonly attempts: number;
  readonly idempotencyKey: string;
  readonly args?: JsonObject;
  readonly startedAt: number;
  readonly request?: ToolCallRequest;
  /** Already in the store (reused after a resume). */
  readonly admitted?: boolean;
}

/** A call that passed every check before dispatch. */
export interface AdmittedCall {
  readonly request: ToolCallRequest;
  readonly capabilities: ToolProviderCapabilities;
  readonly idempotencyKey: string;
}

/**
 * The per-call path of Tool Contract 2.0, one protected method per policy step, in order: resolve
 * the tool, validate the arguments, check contract/provider capabilities, `allowToolCall`, approval,
 * resource-version precondition, dispatch under the deadline with bounded retries, `prepareToolResult`
 * and output validation, `onToolResult`, then project the Tool message for the model.
 * {@link LlmAgentRunner} adds the model loop and durability on top.
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
    assertInvocable(provider);
    for (const descriptor of provider.listTools()) {
      checkToolDescriptor(descriptor);
      if (this.descriptors.has(descriptor.name))
        throw new ToolProviderError('duplicate_tool', `the provider lists tool '${descriptor.name}' twice; which contract applies would be a guess`);
      compileInputValidator(descriptor.inputSchema);
      if (descriptor.outputSchema !== undefined) compileOutputValidator(descriptor.outputSchema);
      this.descriptors.set(descriptor.name, descriptor);
      this.neededCapabilities.set(descriptor.name, capabilityNames(requiredCapabilities(descriptor)));
    }
    this.llmTools = Object.freeze([...this.descriptors.values()].map(toLlmTool));
  }

  /**
   * Runs the calls of one turn concurrently; the records come back in the order of the calls. A call
   * id that repeats within the turn is refused (`duplicate_call_id`, nothing runs) after its first
   * call, whose result alone the id could be bound to. When a call fails the run (a store error, a
   * lost lease), every other call of the turn is still awaited before the error is thrown, so no
   * work of the turn is left running unobserved.
   */
  protected async executeToolCalls(run: RunState, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
    const ids = new Set<string>();
    const settled = await Promise.allSettled(
      calls.map((call) => {
        if (!ids.has(call.id)) {
          ids.add(call.id);
          return this.executeToolCall(run, call);
        }
        const outcome = toolFailure({
          code: 'duplicate_call_id',
          category: 'validation',
          retryable: false,
          message: `another call of this turn already has the id '${call.id}'; this one was not run`,
        });
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
    this.emit(run, { type: 'tool_call_refused', runId: run.runId, callId: call.id, toolName: call.name, outcome });
    return this.toolCallResult(run, call, { outcome, attempts: 0, idempotencyKey: deriveIdempotencyKey(run.runId, call.id), startedAt: run.clock.now() }).result;
  }

  /** The per-call path: every policy step in order, then rendering. */
  protected async executeToolCall(run: RunState, call: ModelToolCall): Promise<ToolCallResult> {
    const startedAt = run.clock.now();
    const idempotencyKey = deriveIdempotencyKey(run.runId, call.id);
    const refused = (outcome: ToolOutcome, args?: JsonObject): MaybePromise<ToolCallResult> => {
      this.emit(run, { type: 'tool_call_refused', runId: run.runId, callId: call.id, toolName: call.name, outcome });
      return this.completeToolCall(run, call, { outcome, attempts: 0, idempotencyKey, args, startedAt });
    };
    const resolved = this.resolveTool(run, call);
    if (resolved.kind === 'refuse') return refused(resolved.outcome);
    const descriptor = resolved.value;
    const validated = this.validateArguments(run, call, descriptor);
    if (validated.kind === 'refuse') return refused(validated.outcome);
    const args = validated.value;
    const request: ToolCallRequest = { runId: run.runId, callId: call.id, toolName: call.name, arguments: args, descriptor };
    if (run.options.signal?.aborted) return refused(standardFailure('cancelled', 'the run was aborted before the tool started'), args);
    const declared = this.declaredCapabilities(run, request);
    if (declared.kind === 'refuse') return refused(declared.outcome, args);
    const capabilities = declared.value;
    const authorized = this.checkCapabilities(run, request, capabilities) ?? this.authorize(run, request);
    const refusal = isPromiseLike(authorized) ? await authorized : authorized;
    if (refusal !== undefined) return refused(refusal, args);
    const approving = this.requestApproval(run, request);
    const approval = isPromiseLike(approving) ? await approving : approving;
    if (approval === 'suspend') return this.suspendToolCall(run, call, { idempotencyKey, args, startedAt });
    const precondition = approval ?? this.checkPrecondition(run, request);
    if (precondition !== undefined) return refused(precondition, args);
    const beginning: CallBeginning = run.recorder === undefined ? EXECUTE : await run.recorder.beginCall(request, idempotencyKey);
    if (beginning.kind === 'refuse') return refused(beginning.outcome, args);
    if (beginning.kind !== 'execute')
      return this.completeToolCall(run, call, { outcome: beginning.outcome, attempts: beginning.attempts, idempotencyKey, args, startedAt, request, admitted: true });
    this.emit(run, { type: 'tool_call_started', runId: run.runId, callId: call.id, toolName: call.name, arguments: args });
    const dispatched = this.dispatchWithRetries(run, { request, capabilities, idempotencyKey });
    const { outcome, attempts } = isPromiseLike(dispatched) ? await dispatched : dispatched;
    const finishing = this.finishOutcome(run, request, outcome);
    const finished = isPromiseLike(finishing) ? await finishing : finishing;
    return this.completeToolCall(run, call, { outcome: finished, attempts, idempotencyKey, args, startedAt, request });
  }

  /** A call that waits for a stored approval decision: no result for the model yet, the run suspends. */
  protected suspendToolCall(run: RunState, call: ModelToolCall, result: { idempotencyKey: string; args: JsonObject; startedAt: number }): ToolCallResult {
    const outcome = toolFailure({ code: 'approval_pending', category: 'permission', retryable: false, message: `'${call.name}' waits for an approval decision` });
    return {
      callId: call.id,
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

  /** Step 1: the tool must exist (`unknown_tool`). */
  protected resolveTool(_run: RunState, call: ModelToolCall): StepResult<ToolDescriptor> {
    const descriptor = this.descriptors.get(call.name);
    if (descriptor !== undefined) return { kind: 'continue', value: descriptor };
    const known = [...this.descriptors.keys()].join(', ');
    return { kind: 'refuse', outcome: standardFailure('unknown_tool', `no tool named '${call.name}'; available tools: ${known}`) };
  }

  /** Step 2: arguments must decode and match the input schema; each issue goes back by JSON Pointer. */
  protected validateArguments(run: RunState, call: ModelToolCall, descriptor: ToolDescriptor): StepResult<JsonObject> {
    const decoded = decodeToolArguments(call.arguments, run.options.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
    const issues = decoded.ok ? compileInputValidator(descriptor.inputSchema)(decoded.value) : decoded.issues;
    if (decoded.ok && issues.length === 0) return { kind: 'continue', value: decoded.value };
    const code = decoded.ok ? 'invalid_arguments' : decoded.code;
    const outcome = toolFailure({
      code,
      category: 'validation',
      retryable: false,
      message: `Invalid arguments for tool '${call.name}': ${formatIssues(issues)}. Correct them and call again.`,
      details: { issues: issues.map((issue) => ({ pointer: issue.pointer, message: issue.message, keyword: issue.keyword })) },
    });
    return { kind: 'refuse', outcome };
  }

  /**
   * The capabilities the provider declares for the tool. A provider whose `capabilities` throws
   * declares nothing it can be trusted with: the call is refused (`capability_mismatch`), fail closed.
   */
  protected declaredCapabilities(run: RunState, request: ToolCallRequest): StepResult<ToolProviderCapabilities> {
    try {
      return { kind: 'continue', value: this.provider.capabilities?.(request.toolName) ?? NO_CAPABILITIES };
    } catch (error) {
      this.hookFailed(run, request, 'capabilities', error);
      const message = `the provider could not report its capabilities for '${request.toolName}' (${messageOf(error)}); the call was not run`;
      return { kind: 'refuse', outcome: standardFailure('capability_mismatch', message) };
    }
  }

  /** Step 3: the provider must declare every capability the contract needs for this tool. */
  protected checkCapabilities(_run: RunState, request: ToolCallRequest, declared: ToolProviderCapabilities): ToolOutcome | undefined {
    const needed = this.neededCapabilities.get(request.toolName) ?? capabilityNames(requiredCapabilities(request.descriptor));
    if (needed.length === 0) return undefined;
    const missing = needed.filter((name) => !declared[name]);
    if (missing.length === 0) return undefined;
    return standardFailure(
      'capability_mismatch',
      `the contract of '${request.toolName}' needs provider capabilities it does not declare: ${missing.join(', ')}`,
    );
  }

  /**
   * Step 4: host policy (`allowToolCall`). Fails closed: a throwing or rejecting hook refuses the
   * call; an abort of the run while the hook is pending refuses it as `cancelled`.
   */
  protected authorize(run: RunState, request: ToolCallRequest): MaybePromise<ToolOutcome | undefined> {
    const hook = run.options.allowToolCall;
    if (hook === undefined) return undefined;
    const refusalOf = (answer: HookResult<ToolCallPermission>): ToolOutcome | undefined => {
      if (answer.kind === 'aborted') return standardFailure('cancelled', 'the run was aborted while host policy decided on the call');
      if (answer.kind === 'failed') {
        this.hookFailed(run, request, 'allowToolCall', answer.error);
        return standardFailure('permission_denied', `host policy could not decide on the call to '${request.toolName}' (allowToolCall failed); it was refused`);
      }
      const permission = answer.value;
      const allowed = typeof permission === 'boolean' ? permission : permission?.allowed === true;
      if (allowed) return undefined;
      const reason = typeof permission === 'object' && permission?.reason !== undefined ? `: ${permission.reason}` : '';
      return standardFailure('permission_denied', `host policy refused the call to '${request.toolName}'${reason}`);
    };
    const answer = callHook(() => hook(request), run.options.signal);
    return isPromiseLike(answer) ? answer.then(refusalOf) : refusalOf(answer);
  }

  /**
   * Step 5: approval per the contract's mode. A decision stored for this call (bound to its tool
   * name and argument hash) wins; otherwise the `approvalHandler` decides and the decision is stored.
   * Without a handler a durable run suspends (`'suspend'`) and a run without a store is denied.
   */
  protected requestApproval(run: RunState, request: ToolCallRequest): MaybePromise<ToolOutcome | undefined | 'suspend'> {
    if (!needsApproval(request.descriptor)) return undefined;
    return this.decideApproval(run, request);
  }

  /**
   * The approval decision of a call that needs one: stored, from the handler, or suspended. A
   * throwing or rejecting handler denies (fail closed); an abort while it is pending is `cancelled`.
   */
  protected async decideApproval(run: RunState, request: ToolCallRequest): Promise<ToolOutcome | undefined | 'suspend'> {
    const base = { runId: run.runId, callId: request.callId, toolName: request.toolName };
    const handler = run.options.approvalHandler;
    const stored = await run.recorder?.approvalOf(request);
    let decision: ToolApprovalDecision;
    if (stored !== undefined && stored.state !== 'pending') {
      decision = stored.state === 'approved' ? { approved: true, reason: 'stored approval' } : { approved: false, reason: stored.reason };
    } else {
      this.emit(run, { type: 'approval_requested', ...base, arguments: request.arguments });
      if (handler === undefined && run.recorder !== undefined) return 'suspend';
      if (handler === undefined) decision = { approved: false, reason: 'no approval handler is configured' };
      else {
        const answer = await callHook(() => handler(request), run.options.signal);
        if (answer.kind === 'aborted') return standardFailure('cancelled', 'the run was aborted while the call waited for approval');
        const valid = answer.kind === 'value' && isApprovalDecision(answer.value);
        if (!valid) this.hookFailed(run, request, 'approvalHandler', answer.kind === 'failed' ? answer.error : new TypeError('the approval handler returned no { approved: boolean } decision'));
        decision = valid ? answer.value : { approved: false, reason: 'the approval handler failed' };
      }
      await run.recorder?.recordDecision(request, decision);
    }
    this.emit(run, { type: 'approval_decided', ...base, approved: decision.approved, reason: decision.reason });
    if (decision.approved) return undefined;
    return standardFailure('approval_denied', `the call to '${request.toolName}' was not approved${decision.reason ? `: ${decision.reason}` : ''}`);
  }

  /** Step 6: a required expected resource version must be present in the arguments. */
  protected checkPrecondition(_run: RunState, request: ToolCallRequest): ToolOutcome | undefined {
    const policy = request.descriptor.resourceVersion;
    if (!policy.requireExpectedVersion) return undefined;
    const version = resolveJsonPointer(request.arguments, policy.argumentPointer);
    if ((typeof version === 'string' && version !== '') || typeof version === 'number') return undefined;
    return standardFailure('precondition_failed', `'${request.toolName}' requires an expected resource version at ${policy.argumentPointer}`);
  }

  /** Steps 7 and 8: attempts under the deadline, retried only when the contract makes it safe. */
  protected dispatchWithRetries(run: RunState, call: AdmittedCall): MaybePromise<{ outcome: ToolOutcome; attempts: number }> {
    const first = this.dispatchAttempt(run, call, 1);
    if (!isPromiseLike(first) && (first.ok || call.request.descriptor.retry.maxAttempts <= 1)) return { outcome: first, attempts: 1 };
    return this.retryAttempts(run, call, first);
  }

  /**
   * The retry loop after the first attempt: only when the contract makes a repeat safe. When the run
   * aborts where a retry was due (before compensation or during the backoff), the call ends as
   * `cancelled`; the last attempt's error stays in `details.lastError` and its compensation state is kept.
   * A retry after a `timeout` does not wait for the timed-out attempt: when that tool ignores its
   * aborted signal, attempts of the same (idempotent) call can overlap; `idempotent_with_key` lets
   * the provider see that they share one idempotency key.
   */
  protected async retryAttempts(run: RunState, call: AdmittedCall, first: MaybePromise<ToolOutcome>): Promise<{ outcome: ToolOutcome; attempts: number }> {
    const { descriptor } = call.request;
    const policy = descriptor.retry;
    for (let attempt = 1; ; attempt++) {
      let outcome = attempt === 1 ? await first : await this.dispatchAttempt(run, call, attempt);
      if (outcome.ok || attempt >= policy.maxAttempts) return { outcome, attempts: attempt };
      const error = outcome.error;
      if (!error.retryable || !policy.retryableCategories.includes(error.category)) return { outcome, attempts: attempt };
      const compensable = outcome.compensation === 'required';
      if (!compensable && descriptor.idempotency === 'non_idempotent') return { outcome, attempts: attempt };
      if (run.options.signal?.aborted) return { outcome: retryCancelled(call.request.toolName, outcome), attempts: attempt };
      if (compensable) {
        outcome = await this.compensate(run, call, attempt, outcome);
        if (outcome.compensation !== 'completed') return { outcome, attempts: attempt };
      }
      const delayMs = computeRetryDelayMs(policy, attempt, run.options.random);
      this.emit(run, { type: 'tool_retry', runId: run.runId, callId: call.request.callId, toolName: call.request.toolName, attempt, delayMs, failure: outcome });
      if (!(await sleepOnClock(run.clock, delayMs, run.options.signal))) return { outcome: retryCancelled(call.request.toolName, outcome), attempts: attempt };
      await run.recorder?.recordAttempt(call.request.callId, attempt + 1);
    }
  }

  /** One attempt: builds the invocation (capability-guarded fields only) and runs it under the deadline. */
  protected dispatchAttempt(run: RunState, call: AdmittedCall, attempt: number): MaybePromise<ToolOutcome> {
    const { request } = call;
    const base = { runId: run.runId, callId: request.callId, toolName: request.toolName };
    this.emit(run, { type: 'tool_attempt_started', ...base, attempt });
    return runToolAttempt({
      clock: run.clock,
      timeoutMs: request.descriptor.timeoutMs,
      idleTimeoutMs: request.descriptor.heartbeat?.idleTimeoutMs,
      runSignal: run.options.signal,
      start: (signal, reportHeartbeat, deadlineAtMs) => {
        if (this.provider.invokeTool === undefined) return this.provider.invoke!(request.toolName, request.arguments, signal());
        return this.provider.invokeTool(this.buildInvocation(run, call, attempt, signal, deadlineAtMs, reportHeartbeat));
      },
      onHeartbeat: (progress) => this.emit(run, { type: 'tool_heartbeat', ...base, attempt, progress }),
      onTimeout: (limit, limitMs) => this.emit(run, { type: 'tool_timeout', ...base, attempt, limit, limitMs }),
      onLateResult: (outcome) => this.emit(run, { type: 'tool_late_result_discarded', ...base, attempt, outcome }),
    });
  }

  /** The invocation a rich provider receives; guarded fields only with the declared capability. */
  protected buildInvocation(
    run: RunState,
    call: AdmittedCall,
    attempt: number,
    signal: () => AbortSignal,
    deadlineAtMs: number,
    reportHeartbeat: ToolInvocation['reportHeartbeat'],
  ): ToolInvocation {
    const { request, capabilities } = call;
    return {
      get signal() {
        return signal();
      },
      toolName: request.toolName,
      descriptor: request.descriptor,
      arguments: request.arguments,
      callId: request.callId,
      idempotencyKey: capabilities.idempotencyKey ? call.idempotencyKey : undefined,
      attempt,
      runId: run.runId,
      context: capabilities.invocationContext ? run.options.context : undefined,
      deadline: { timeoutMs: request.descriptor.timeoutMs, deadlineAtMs },
      reportHeartbeat: capabilities.heartbeat ? reportHeartbeat : noHeartbeat,
    };
  }

  /**
   * Asks the owning provider to undo a failed attempt's partial effect; the outcome records the
   * result. Compensation runs under the tool's declared timeout as its own hard deadline and stops
   * when the run aborts (its invocation's signal aborts; a compensation that ignores it is not
   * waited for): either way it counts as failed, so the call is not retried.
   */
  protected async compensate(run: RunState, call: AdmittedCall, attempt: number, failure: ToolOutcome): Promise<ToolOutcome> {
    const { request } = call;
    let ok = false;
    let message: string | undefined;
    const provider = this.provider;
    if (request.descriptor.compensation.enabled && call.capabilities.compensation && provider.compensate !== undefined) {
      const asOutcome = (result: CompensationResult): ToolOutcome =>
        result.ok ? toolText(result.message ?? '') : toolFailure({ code: 'compensation_failed', retryable: false, message: result.message ?? 'compensation failed' });
      const undone = await runToolAttempt({
        clock: run.clock,
        timeoutMs: request.descriptor.timeoutMs,
        runSignal: run.options.signal,
        start: (signal, _heartbeat, deadlineAtMs) => {
          const result = provider.compensate!(this.buildInvocation(run, call, attempt, signal, deadlineAtMs, noHeartbeat), failure);
          return isPromiseLike(result) ? Promise.resolve(result).then(asOutcome) : asOutcome(result);
        },
      });
      ok = undone.ok;
      message = undone.ok ? undone.text || undefined : undone.error?.message;
    } else {
      message = 'compensation is not enabled for this tool';
    }
    this.emit(run, { type: 'compensation_finished', runId: run.runId, callId: request.callId, toolName: request.toolName, attempt, ok, message });
    return { ...failure, compensation: ok ? 'completed' : 'failed' };
  }

  /**
   * Step 9: `prepareToolResult`, output-schema validation, and the returned resource version. When
   * the hook throws or rejects, the outcome becomes a `tool_error` failure that says the tool ran;
   * the unprepared outcome is withheld, since the hook may exist to redact it. So does a hook that
   * returns something that is not an outcome (say `undefined`, from a forgotten `return`).
   */
  protected finishOutcome(run: RunState, request: ToolCallRequest, outcome: ToolOutcome): MaybePromise<ToolOutcome> {
    const validate = (prepared: ToolOutcome): ToolOutcome => withResourceVersion(this.validateOutput(run, request, prepared), request.descriptor);
    const prepare = run.options.prepareToolResult;
    if (prepare === undefined) return validate(outcome);
    const validateAnswer = (answer: HookResult<ToolOutcome>): ToolOutcome => {
      if (answer.kind === 'value' && isToolOutcome(answer.value)) return validate(answer.value);
      const error = answer.kind === 'failed' ? answer.error : new TypeError(`prepareToolResult returned ${answer.kind === 'value' ? typeof answer.value : 'nothing'}, not a tool outcome`);
      this.hookFailed(run, request, 'prepareToolResult', error);
      const message = `'${request.toolName}' ran, but prepareToolResult failed on its outcome, so the outcome was withheld; do not assume it had no effect`;
      return toolFailure({ code: 'tool_error', category: 'internal', retryable: false, message });
    };
    const answer = callHook(() => prepare(outcome, request));
    return isPromiseLike(answer) ? answer.then(validateAnswer) : validateAnswer(answer);
  }

  /** Output validation: `strict` fails, `warning` records issues in metadata, `disabled` skips. */
  protected validateOutput(run: RunState, request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
    const { outputSchema, outputValidation } = request.descriptor;
    if (!outcome.ok || outputSchema === undefined || outputValidation === 'disabled') return outcome;
    const issues =
      outcome.data === undefined
        ? [{ pointer: '', message: 'the tool returned no structured data', keyword: 'type' }]
        : compileOutputValidator(outputSchema)(outcome.data);
    if (issues.length === 0) return outcome;
    const plainIssues = issues.map((issue) => ({ pointer: issue.pointer, message: issue.message, keyword: issue.keyword }));
    if (outputValidation === 'strict')
      return toolFailure({
        code: 'output_validation',
        category: 'validation',
        retryable: false,
        message: `the output of '${request.toolName}' does not match its output schema: ${formatIssues(issues)}`,
        details: { issues: plainIssues },
      });
    this.emit(run, { type: 'output_validation_warning', runId: run.runId, callId: request.callId, toolName: request.toolName, issues: plainIssues });
    return { ...outcome, metadata: { ...outcome.metadata, outputValidationIssues: plainIssues } };
  }

  /** Step 10: `onToolResult` gets the complete outcome, then the Tool message is rendered. */
  protected completeToolCall(run: RunState, call: ModelToolCall, result: CompletedCall): MaybePromise<ToolCallResult> {
    const { request } = result;
    if (request !== undefined && (run.recorder !== undefined || run.options.onToolResult !== undefined))
      return this.completeToolCallDurably(run, call, result, request);
    return this.toolCallResult(run, call, result).result;
  }

  /**
   * Admission (before projection), `onToolResult` (a failing observer is reported, not fatal), then
   * the projected result; its projection audit is stored with its Tool message (`recordToolResults`).
   */
  protected async completeToolCallDurably(run: RunState, call: ModelToolCall, result: CompletedCall, request: ToolCallRequest): Promise<ToolCallResult> {
    if (result.admitted !== true) await run.recorder?.admit(call.id, result.outcome, result.attempts);
    const observe = run.options.onToolResult;
    if (observe !== undefined) {
      const observed = await callHook(() => observe(result.outcome, request));
      if (observed.kind === 'failed') this.hookFailed(run, request, 'onToolResult', observed.error);
    }
    const done = this.toolCallResult(run, call, result).result;
    return run.recorder === undefined ? done : { ...done, admitted: true };
  }

  /** Reports the finished call, projects its outcome for the model and builds the result. */
  protected toolCallResult(run: RunState, call: ModelToolCall, result: CompletedCall): { result: ToolCallResult; report?: ToolOutputProjectionReport } {
    const { outcome, attempts } = result;
    const durationMs = run.clock.now() - result.startedAt;
    this.emit(run, { type: 'tool_call_finished', runId: run.runId, callId: call.id, toolName: call.name, outcome, attempts, durationMs });
    const { content, report } = this.projectForModel(run, call, outcome);
    return {
      report,
      result: {
        callId: call.id,
        toolName: call.name,
        rawArguments: call.arguments,
        arguments: result.args,
        outcome,
        attempts,
        idempotencyKey: result.idempotencyKey,
        content,
        projection: report,
        durationMs,
      },
    };
  }

  /**
   * The one place the model-facing Tool message is made: the rendered outcome, projected within the
   * effective ceilings. A projection failure becomes a short `tool_output_projection_failed` failure;
   * the failed content is never sent.
   */
  protected projectForModel(run: RunState, call: ModelToolCall, outcome: ToolOutcome): { content: string; report?: ToolOutputProjectionReport } {
    const policy = this.projectionPolicyOf(run, this.descriptors.get(call.name));
    const projected = tryProjectToolOutputForModel(outcome, { policy, estimator: run.options.contextTokenEstimator });
    if (!projected.ok) {
      const failure = standardFailure('tool_output_projection_failed', `the output of '${call.name}' could not be projected for the model (${projected.error.kind})`);
      return { content: renderToolMessage(failure) };
    }
    const observe = run.options.onToolOutputProjection;
    if (observe !== undefined) {
      try {
        const observed: unknown = observe(projected.report, { callId: call.id, toolName: call.name });
        if (isPromiseLike(observed)) observed.then(undefined, (error: unknown) => this.hookFailed(run, { callId: call.id, toolName: call.name }, 'onToolOutputProjection', error));
      } catch (error) {
        this.hookFailed(run, { callId: call.id, toolName: call.name }, 'onToolOutputProjection', error);
      }
    }
    if (projected.report.truncated)
      this.emit(run, { type: 'tool_output_truncated', runId: run.runId, callId: call.id, toolName: call.name, report: projected.report });
    return { content: projected.content, report: projected.report };
  }

  /** The effective projection policy of a tool: the run's, tightened by the tool's contract. */
  protected projectionPolicyOf(run: RunState, descriptor: ToolDescriptor | undefined): ToolOutputProjectionPolicy {
    const runPolicy = run.options.toolOutputProjection ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
    let perDescriptor = effectivePolicies.get(runPolicy);
    if (perDescriptor === undefined) effectivePolicies.set(runPolicy, (perDescriptor = new WeakMap()));
    const key = descriptor ?? runPolicy;
    let policy = perDescriptor.get(key);
    if (policy === undefined) perDescriptor.set(key, (policy = effectiveToolOutputProjection(runPolicy, descriptor?.modelOutputProjection)));
    return policy;
  }

  /** Before any model or tool call: every tool's effective projection policy must hold under the estimator. */
  protected checkProjectionPolicies(run: RunState): void {
    const estimator = run.options.contextTokenEstimator;
    const cacheKey = estimator ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
    let checked = checkedProjectionPolicies.get(cacheKey);
    if (checked === undefined) checkedProjectionPolicies.set(cacheKey, (checked = new Set<string>()));
    for (const descriptor of [undefined, ...this.descriptors.values()]) {
      const policy = this.projectionPolicyOf(run, descriptor);
      const key = `${policy.maxBytes}:${policy.maxTokens}`;
      if (checked.has(key)) continue;
      checkToolOutputProjectionPolicy(policy, estimator);
      checked.add(key);
    }
  }

  /** Reports a host hook that threw or rejected (`hook_failed`). */
  protected hookFailed(run: RunState, call: { readonly callId: string; readonly toolName: string }, hook: LlmAgentHookName, error: unknown): void {
    this.emit(run, { type: 'hook_failed', runId: run.runId, callId: call.callId, toolName: call.toolName, hook, message: messageOf(error) });
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
}

/** Effective projection policies, per run policy object and descriptor (both immutable). */
const effectivePolicies = new WeakMap<object, WeakMap<object, ToolOutputProjectionPolicy>>();

/** Policies already proven to hold, per estimator (the default estimator under a sentinel key). */
const checkedProjectionPolicies = new WeakMap<object, Set<string>>();

/** The outcome of a call whose due retry the run's abort cut short. */
function retryCancelled(toolName: string, last: ToolOutcome): ToolOutcome {
  const error = last.error!;
  const lastError = { code: error.code, category: error.category, message: error.message, retryable: error.retryable };
  const cancelled = standardFailure('cancelled', `the run was aborted before '${toolName}' could be retried; its last attempt failed: ${error.message}`, { lastError });
  return last.compensation === undefined ? cancelled : { ...cancelled, compensation: last.compensation };
}

/** True for an object with a boolean `approved`, as an approval handler must answer. */
function isApprovalDecision(value: unknown): value is ToolApprovalDecision {
  return typeof value === 'object' && value !== null && typeof (value as { approved?: unknown }).approved === 'boolean';
}

/** Catches the rejection of an observer that returned a promise although none is awaited. */
function ignoreRejection(value: unknown): void {
  if (isPromiseLike(value)) value.then(undefined, () => undefined);
}

const EXECUTE: CallBeginning = Object.freeze({ kind: 'execute' });


const noHeartbeat = (): void => undefined;

/** The names of the capabilities set to true. */
function capabilityNames(capabilities: ToolProviderCapabilities): readonly (keyof ToolProviderCapabilities)[] {
  return Object.freeze((Object.keys(capabilities) as (keyof ToolProviderCapabilities)[]).filter((name) => capabilities[name]));
}
