import { computeRetryDelayMs } from '../../contract/retry-delay';
import { JsonValue } from '../../outcome/json-value';
import { standardFailure, toolFailure, ToolOutcome, toolText } from '../../outcome/tool-outcome';
import { HeartbeatProgress, ToolInvocation } from '../../providers/tool-invocation';
import { CompensationResult, ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { isPromiseLike, MaybePromise } from '../maybe-promise';
import { ToolCallRequest } from '../run-options';
import { RunnerClock, sleepOnClock, startTimer } from '../runner-clock';
import { copyArguments } from './copy-arguments';
import { AttemptHandle, runToolAttempt, ToolAttemptOptions } from './run-tool-attempt';
import { StepContext } from './step-context';

/** A call that passed every check before dispatch. */
export interface AdmittedCall {
  readonly request: ToolCallRequest;
  readonly capabilities: ToolProviderCapabilities;
  readonly idempotencyKey: string;
}

/** The final outcome of a dispatched call and how many attempts it took. */
export interface DispatchedCall {
  readonly outcome: ToolOutcome;
  readonly attempts: number;
}

/** True when the contract never retries a call of the tool: its first attempt is its only one. */
export function triesOnce(descriptor: ToolCallRequest['descriptor']): boolean {
  return descriptor.retry.maxAttempts <= 1;
}

/** The `dispatchWithRetries` step as `LlmAgentRunner` defines it (documented there). */
export async function dispatchWithRetries(context: StepContext, call: AdmittedCall): Promise<DispatchedCall> {
  const first = await context.dispatchAttempt(call, 1);
  if (first.ok || triesOnce(call.request.descriptor)) return { outcome: first, attempts: 1 };
  return await context.retryAttempts(call, first);
}

/** The `retryAttempts` step as `LlmAgentRunner` defines it (documented there). */
export async function retryAttempts(
  context: StepContext,
  call: AdmittedCall,
  first: MaybePromise<ToolOutcome>,
): Promise<DispatchedCall> {
  const { run } = context;
  const { request } = call;
  const policy = request.descriptor.retry;
  for (let attempt = 1; ; attempt++) {
    let outcome = attempt === 1 ? await first : await context.dispatchAttempt(call, attempt);
    if (outcome.ok || attempt >= policy.maxAttempts) return { outcome, attempts: attempt };
    const error = outcome.error;
    if (!error.retryable || !policy.retryableCategories.includes(error.category)) return { outcome, attempts: attempt };
    const compensable = outcome.compensation === 'required';
    if (!compensable && request.descriptor.idempotency === 'non_idempotent') return { outcome, attempts: attempt };
    if (run.options.signal?.aborted) return { outcome: retryCancelled(request.toolName, outcome), attempts: attempt };
    if (compensable) {
      outcome = await context.compensate(call, attempt, outcome);
      if (run.options.signal?.aborted) return { outcome: retryCancelled(request.toolName, outcome), attempts: attempt };
      if (outcome.compensation !== 'completed') return { outcome, attempts: attempt };
    }
    const delayMs = computeRetryDelayMs(policy, attempt, run.options.random);
    context.emit({
      type: 'tool_retry',
      runId: run.runId,
      callId: request.callId,
      turn: request.turn,
      toolName: request.toolName,
      attempt,
      delayMs,
      failure: outcome,
    });
    const abandoned = abandonedAttempts.get(call);
    abandonedAttempts.delete(call);
    const graceMs = run.options.abandonedAttemptGraceMs ?? DEFAULT_ABANDONED_ATTEMPT_GRACE_MS;
    const [slept, drained] = await Promise.all([
      sleepOnClock(run.clock, delayMs, run.options.signal),
      abandoned === undefined ? true : settlesWithin(run.clock, abandoned, graceMs, run.options.signal),
    ]);
    if (!slept || run.options.signal?.aborted)
      return { outcome: retryCancelled(request.toolName, outcome), attempts: attempt };
    if (!drained) return { outcome: stillRunning(outcome, graceMs), attempts: attempt };
    await run.recorder?.recordAttempt(request.callId, request.turn, attempt + 1);
  }
}

/** The `dispatchAttempt` step as `LlmAgentRunner` defines it (documented there). */
export function dispatchAttempt(
  context: StepContext,
  provider: ToolProvider,
  call: AdmittedCall,
  attempt: number,
): MaybePromise<ToolOutcome> {
  const { request } = call;
  const base = { runId: context.run.runId, callId: request.callId, turn: request.turn, toolName: request.toolName };
  context.emit({ type: 'tool_attempt_started', ...base, attempt });
  return runToolAttempt(new DispatchedAttempt(context, provider, call, attempt, base));
}

/** The fields every event of one attempt shares. */
interface AttemptEventBase {
  readonly runId: string;
  readonly callId: string;
  readonly turn: number;
  readonly toolName: string;
}

/**
 * The options of one dispatched attempt: the run's clock and signal, the contract's limits, and the hooks that report
 * the attempt's events.
 */
class DispatchedAttempt implements ToolAttemptOptions {
  readonly clock: RunnerClock;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number | undefined;
  readonly runSignal: AbortSignal | undefined;
  readonly expectsData: boolean;

  constructor(
    private readonly context: StepContext,
    private readonly provider: ToolProvider,
    private readonly call: AdmittedCall,
    private readonly attempt: number,
    private readonly base: AttemptEventBase,
  ) {
    const { run } = context;
    const { descriptor } = call.request;
    this.clock = run.clock;
    this.timeoutMs = descriptor.timeoutMs;
    this.idleTimeoutMs = descriptor.heartbeat?.idleTimeoutMs;
    this.runSignal = run.options.signal;
    this.expectsData = descriptor.outputSchema !== undefined;
  }

  start(live: AttemptHandle): unknown {
    const { provider, call } = this;
    const { request } = call;
    if (provider.invokeTool === undefined)
      return provider.invoke!(request.toolName, copyArguments(request.arguments), live.signal);
    return provider.invokeTool(
      new RunnerInvocation(this.context, call, this.attempt, live, call.capabilities.heartbeat === true),
    );
  }

  onAbandoned(settled: Promise<void>): void {
    abandonedAttempts.set(this.call, settled);
  }

  onHeartbeat(progress?: HeartbeatProgress): void {
    this.context.emit({ type: 'tool_heartbeat', ...this.base, attempt: this.attempt, progress });
  }

  onTimeout(limit: 'deadline' | 'heartbeat', limitMs: number): void {
    this.context.emit({ type: 'tool_timeout', ...this.base, attempt: this.attempt, limit, limitMs });
  }

  onLateResult(outcome: ToolOutcome): void {
    this.context.emit({ type: 'tool_late_result_discarded', ...this.base, attempt: this.attempt, outcome });
  }
}

/** The `compensate` step as `LlmAgentRunner` defines it (documented there). */
export async function compensate(
  context: StepContext,
  provider: ToolProvider,
  call: AdmittedCall,
  attempt: number,
  failure: ToolOutcome,
): Promise<ToolOutcome> {
  const { run } = context;
  const { request } = call;
  let ok = false;
  let message: string | undefined;
  const undo = provider.compensate?.bind(provider);
  if (request.descriptor.compensation.enabled && call.capabilities.compensation && undo !== undefined) {
    const asOutcome = (result: CompensationResult): ToolOutcome =>
      result.ok
        ? toolText(result.message ?? '')
        : toolFailure({
            code: 'compensation_failed',
            retryable: false,
            message: result.message ?? 'compensation failed',
          });
    const undone = await runToolAttempt({
      clock: run.clock,
      timeoutMs: request.descriptor.timeoutMs,
      runSignal: run.options.signal,
      start: (live) => {
        const result = undo(new RunnerInvocation(context, call, attempt, live, false), failure);
        return isPromiseLike(result) ? Promise.resolve(result).then(asOutcome) : asOutcome(result);
      },
    });
    ok = undone.ok;
    message = undone.ok ? undone.text || undefined : undone.error?.message;
  } else {
    message = 'compensation is not enabled for this tool';
  }
  context.emit({
    type: 'compensation_finished',
    runId: run.runId,
    callId: request.callId,
    turn: request.turn,
    toolName: request.toolName,
    attempt,
    ok,
    message,
  });
  return { ...failure, compensation: ok ? 'completed' : 'failed' };
}

/**
 * The invocation a rich provider receives; guarded fields only with the declared capability. A
 * class, so `signal` is read from the attempt on each access: always the attempt's current signal.
 */
class RunnerInvocation implements ToolInvocation {
  readonly toolName: string;
  readonly descriptor: ToolInvocation['descriptor'];
  readonly arguments: ToolInvocation['arguments'];
  readonly callId: string;
  readonly idempotencyKey: string | undefined;
  readonly runId: string;
  readonly context: unknown;
  readonly deadline: ToolInvocation['deadline'];
  readonly reportHeartbeat: ToolInvocation['reportHeartbeat'];

  constructor(
    stepContext: StepContext,
    call: AdmittedCall,
    readonly attempt: number,
    private readonly live: AttemptHandle,
    heartbeat: boolean,
  ) {
    const { run } = stepContext;
    const { request, capabilities } = call;
    this.toolName = request.toolName;
    this.descriptor = request.descriptor;
    this.arguments = copyArguments(request.arguments);
    this.callId = request.callId;
    this.idempotencyKey = capabilities.idempotencyKey ? call.idempotencyKey : undefined;
    this.runId = run.runId;
    this.context = capabilities.invocationContext ? run.options.context : undefined;
    this.deadline = { timeoutMs: request.descriptor.timeoutMs, deadlineAtMs: live.deadlineAtMs };
    this.reportHeartbeat = heartbeat ? live.reportHeartbeat : noHeartbeat;
  }

  get signal(): AbortSignal {
    return this.live.signal;
  }
}

/** How long a retry waits for an abandoned attempt to settle, unless the run says otherwise. */
export const DEFAULT_ABANDONED_ATTEMPT_GRACE_MS = 5_000;

/** Attempts given up while their tool still ran, per call, until the retry loop waits for them. */
const abandonedAttempts = new WeakMap<AdmittedCall, Promise<void>>();

/** True when `settled` settles within `graceMs` on the clock; false after that or when the signal aborts. */
function settlesWithin(
  clock: RunnerClock,
  settled: Promise<void>,
  graceMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (drained: boolean): void => {
      cancel();
      signal?.removeEventListener('abort', onAbort);
      resolve(drained);
    };
    const onAbort = (): void => done(false);
    const cancel = startTimer(clock, () => done(false), graceMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    void settled.then(() => done(true));
  });
}

/** The failure of a call not retried because its abandoned attempt still ran after the grace period. */
function stillRunning(last: ToolOutcome, graceMs: number): ToolOutcome {
  if (last.ok) return last;
  const { error } = last;
  const message = `${error.message}; not retried: the abandoned attempt was still running ${graceMs} ms later, and attempts of one call never overlap`;
  return {
    ...last,
    error: { ...error, message, details: { ...asObject(error.details), abandonedAttempt: 'running', graceMs } },
  };
}

/** The outcome of a call whose due retry the run's abort cut short. */
function retryCancelled(toolName: string, last: ToolOutcome): ToolOutcome {
  const error = last.error!;
  const lastError = { code: error.code, category: error.category, message: error.message, retryable: error.retryable };
  const details: Record<string, JsonValue> =
    last.compensation === undefined ? { lastError } : { lastError, compensation: last.compensation };
  const cancelled = standardFailure(
    'cancelled',
    `the run was aborted before '${toolName}' could be retried; its last attempt failed: ${error.message}`,
    details,
  );
  return last.compensation === undefined ? cancelled : { ...cancelled, compensation: last.compensation };
}

function asObject(value: unknown): Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, JsonValue>)
    : {};
}

const noHeartbeat = (): void => undefined;
