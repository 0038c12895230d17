import { computeRetryDelayMs } from '../../contract/retry-delay';
import { JsonValue } from '../../outcome/json-value';
import { standardFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { MaybePromise } from '../maybe-promise';
import { RunInProgress } from '../run-state';
import { RunnerClock, sleepOnClock, startTimer } from '../runner-clock';
import { AdmittedCall, DispatchedCall } from './call-types';
import { StepContext } from './step-context';

/** How long a retry waits for an abandoned attempt to settle, unless the run says otherwise. */
export const DEFAULT_ABANDONED_ATTEMPT_GRACE_MS = 5_000;

/** The `retryAttempts` step as `LlmAgentRunner` defines it (documented there). */
export async function retryAttempts(
  steps: StepContext,
  run: RunInProgress,
  call: AdmittedCall,
  first: MaybePromise<ToolOutcome>,
): Promise<DispatchedCall> {
  const { request } = call;
  const policy = request.descriptor.retry;
  for (let attempt = 1; ; attempt++) {
    let outcome = attempt === 1 ? await first : await steps.dispatchAttempt(run, call, attempt);
    if (outcome.ok || attempt >= policy.maxAttempts) return { outcome, attempts: attempt };
    const error = outcome.error;
    if (!error.retryable || !policy.retryableCategories.includes(error.category)) return { outcome, attempts: attempt };
    const compensable = outcome.compensation === 'required';
    if (!compensable && request.descriptor.idempotency === 'non_idempotent') return { outcome, attempts: attempt };
    if (run.options.signal?.aborted) return { outcome: retryCancelled(request.toolName, outcome), attempts: attempt };
    if (compensable) {
      outcome = await steps.compensate(run, call, attempt, outcome);
      if (run.options.signal?.aborted) return { outcome: retryCancelled(request.toolName, outcome), attempts: attempt };
      if (outcome.compensation !== 'completed') return { outcome, attempts: attempt };
    }
    const delayMs = computeRetryDelayMs(policy, attempt, run.options.random);
    steps.emit(run, {
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

/** Remembers an attempt of `call` given up while its tool still ran, until the retry loop waits for it. */
export function noteAbandonedAttempt(call: AdmittedCall, settled: Promise<void>): void {
  abandonedAttempts.set(call, settled);
}

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
