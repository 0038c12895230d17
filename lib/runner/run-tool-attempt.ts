import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress, ToolInvocation } from '../providers/tool-invocation';
import { thrownToToolOutcome, toToolOutcome } from '../tools/to-tool-outcome';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { RunnerClock } from './runner-clock';

/** What one attempt needs besides the provider call itself. */
export interface ToolAttemptOptions {
  readonly clock: RunnerClock;
  /** Hard deadline of this attempt, ms. */
  readonly timeoutMs: number;
  /** Heartbeat idle limit, ms; undefined for none. */
  readonly idleTimeoutMs?: number;
  /** The run's signal; its abort cancels the attempt. */
  readonly runSignal?: AbortSignal;
  /**
   * Starts the provider call. `signal()` returns the attempt's signal; it is created on first use,
   * so a tool that never looks at it costs no AbortController.
   */
  readonly start: (signal: () => AbortSignal, reportHeartbeat: ToolInvocation['reportHeartbeat'], deadlineAtMs: number) => unknown;
  readonly onHeartbeat?: (progress?: HeartbeatProgress) => void;
  readonly onTimeout?: (limit: 'deadline' | 'heartbeat', limitMs: number) => void;
  readonly onLateResult?: (outcome: ToolOutcome) => void;
}

/**
 * Runs one attempt under a hard deadline with at most one live timer. At the deadline (or after
 * heartbeat silence longer than the idle limit, or when the run aborts) the attempt's signal is
 * aborted and a `timeout` / `heartbeat_timeout` / `cancelled` failure is returned at once, without
 * waiting for a tool that ignores the signal; a late result is reported through `onLateResult` and
 * discarded. Heartbeats move the idle limit, never the deadline. Never throws or rejects.
 *
 * A tool that answers synchronously gets its outcome back synchronously: no timer, no listener.
 */
export function runToolAttempt(options: ToolAttemptOptions): MaybePromise<ToolOutcome> {
  const { clock, timeoutMs, idleTimeoutMs, runSignal } = options;
  let controller: AbortController | undefined;
  const signal = (): AbortSignal => (controller ??= new AbortController()).signal;
  const abort = (reason: unknown): void => (controller ??= new AbortController()).abort(reason);
  const startedAt = clock.now();
  const deadlineAt = startedAt + timeoutMs;
  let idleAt = idleTimeoutMs === undefined ? Infinity : startedAt + idleTimeoutMs;
  let settled = false;
  const reportHeartbeat = (progress?: HeartbeatProgress): void => {
    if (settled || idleTimeoutMs === undefined) return;
    idleAt = clock.now() + idleTimeoutMs;
    options.onHeartbeat?.(progress);
  };
  const cancelled = (): ToolOutcome => {
    abort(runSignal?.reason);
    return standardFailure('cancelled', 'the run was aborted while the tool was running');
  };
  if (runSignal?.aborted) return cancelled();
  let pending: unknown;
  try {
    pending = options.start(signal, reportHeartbeat, deadlineAt);
  } catch (error) {
    return thrownToToolOutcome(error);
  }
  if (!isPromiseLike(pending)) return toToolOutcome(pending);
  const running = pending;

  return new Promise<ToolOutcome>((resolve) => {
    let timer: unknown;
    const finish = (outcome: ToolOutcome): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      runSignal?.removeEventListener('abort', onRunAbort);
      resolve(outcome);
    };
    const expire = (limit: 'deadline' | 'heartbeat'): void => {
      const limitMs = limit === 'deadline' ? timeoutMs : idleTimeoutMs!;
      abort(new Error(`tool ${limit} of ${limitMs} ms passed`));
      options.onTimeout?.(limit, limitMs);
      finish(
        limit === 'deadline'
          ? standardFailure('timeout', `the tool did not finish within its ${timeoutMs} ms deadline`)
          : standardFailure('heartbeat_timeout', `the tool sent no heartbeat for ${limitMs} ms`),
      );
    };
    const arm = (): void => {
      timer = clock.setTimeout(onTimer, Math.max(0, Math.min(deadlineAt, idleAt) - clock.now()));
    };
    const onTimer = (): void => {
      if (settled) return;
      const now = clock.now();
      if (now >= deadlineAt) expire('deadline');
      else if (now >= idleAt) expire('heartbeat');
      else arm();
    };
    const onRunAbort = (): void => finish(cancelled());
    const settle = (outcome: ToolOutcome): void => {
      if (settled) options.onLateResult?.(outcome);
      else finish(outcome);
    };
    runSignal?.addEventListener('abort', onRunAbort, { once: true });
    arm();
    // Through Promise.resolve: a foreign thenable whose `then` throws is a rejection, not a throw here.
    Promise.resolve(running).then(
      (value) => settle(toToolOutcome(value)),
      (error: unknown) => settle(thrownToToolOutcome(error)),
    );
  });
}
