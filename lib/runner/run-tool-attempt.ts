import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress, ToolInvocation } from '../providers/tool-invocation';
import { thrownToToolOutcome, toToolOutcome } from '../tools/to-tool-outcome';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { RunnerClock, startTimer } from './runner-clock';

/** What one attempt needs besides the provider call itself. */
export interface ToolAttemptOptions {
  readonly clock: RunnerClock;
  /** Hard deadline of this attempt, ms. */
  readonly timeoutMs: number;
  /** Heartbeat idle limit, ms; undefined for none. */
  readonly idleTimeoutMs?: number;
  /** The run's signal; its abort cancels the attempt. */
  readonly runSignal?: AbortSignal;
  /** The tool declares an output schema: returning `undefined` is then a `tool_error`, not an empty success. @default false */
  readonly expectsData?: boolean;
  /**
   * Starts the provider call. `signal()` returns the attempt's signal; it is created on first use,
   * so a tool that never looks at it costs no AbortController.
   */
  readonly start: (signal: () => AbortSignal, reportHeartbeat: ToolInvocation['reportHeartbeat'], deadlineAtMs: number) => unknown;
  readonly onHeartbeat?: (progress?: HeartbeatProgress) => void;
  readonly onTimeout?: (limit: 'deadline' | 'heartbeat', limitMs: number) => void;
  readonly onLateResult?: (outcome: ToolOutcome) => void;
  /**
   * The attempt was given up (deadline, heartbeat silence, abort) while the tool was still running;
   * `settled` resolves when the tool's promise settles at last (never, for a tool that ignores its signal).
   */
  readonly onAbandoned?: (settled: Promise<void>) => void;
}

/**
 * Runs one attempt under a hard deadline with at most one live timer. At the deadline (or after
 * heartbeat silence longer than the idle limit, or when the run aborts) the attempt's signal is
 * aborted and a `timeout` / `heartbeat_timeout` / `cancelled` failure is returned at once, without
 * waiting for a tool that ignores the signal; a late result is reported through `onLateResult` and
 * discarded. Heartbeats move the idle limit, never the deadline. Never throws or rejects.
 *
 * A tool that answers synchronously gets its outcome back synchronously: no timer, no listener. A
 * tool that blocks the thread past its deadline (synchronously, or before returning its promise)
 * is a `timeout` all the same, and what it returned is discarded as a late result.
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
  const timedOut = (limit: 'deadline' | 'heartbeat'): ToolOutcome => {
    const limitMs = limit === 'deadline' ? timeoutMs : idleTimeoutMs!;
    abort(new Error(`tool ${limit} of ${limitMs} ms passed`));
    options.onTimeout?.(limit, limitMs);
    return limit === 'deadline'
      ? standardFailure('timeout', `the tool did not finish within its ${timeoutMs} ms deadline`)
      : standardFailure('heartbeat_timeout', `the tool sent no heartbeat for ${limitMs} ms`);
  };
  const convert = (value: unknown): ToolOutcome =>
    value === undefined && options.expectsData === true
      ? toolFailure({ code: 'tool_error', category: 'internal', message: 'the tool returned undefined, which is not JSON; its contract declares an output schema' })
      : toToolOutcome(value);
  if (runSignal?.aborted) return cancelled();
  let pending: unknown;
  let threw = false;
  try {
    pending = options.start(signal, reportHeartbeat, deadlineAt);
  } catch (error) {
    threw = true;
    pending = error;
  }
  const thenable = !threw && isPromiseLike(pending);
  if (clock.now() >= deadlineAt) {
    // The tool held the thread past its deadline: no result of it counts.
    settled = true;
    const outcome = timedOut('deadline');
    if (!thenable) options.onLateResult?.(threw ? thrownToToolOutcome(pending) : convert(pending));
    else {
      const late = Promise.resolve(pending as PromiseLike<unknown>).then(convert, thrownToToolOutcome);
      options.onAbandoned?.(late.then(() => undefined));
      void late.then((lateOutcome) => options.onLateResult?.(lateOutcome));
    }
    return outcome;
  }
  if (threw) return thrownToToolOutcome(pending);
  if (!thenable) return convert(pending);
  // Through Promise.resolve: a foreign thenable whose `then` throws is a rejection, not a throw here.
  const running = Promise.resolve(pending as PromiseLike<unknown>).then(convert, thrownToToolOutcome);

  return new Promise<ToolOutcome>((resolve) => {
    let cancelTimer: (() => void) | undefined;
    const finish = (outcome: ToolOutcome, abandoned: boolean): void => {
      if (settled) return;
      settled = true;
      cancelTimer?.();
      runSignal?.removeEventListener('abort', onRunAbort);
      if (abandoned) options.onAbandoned?.(running.then(() => undefined));
      resolve(outcome);
    };
    const arm = (): void => {
      cancelTimer = startTimer(clock, onTimer, Math.max(0, Math.min(deadlineAt, idleAt) - clock.now()));
    };
    const onTimer = (): void => {
      if (settled) return;
      const now = clock.now();
      if (now >= deadlineAt) finish(timedOut('deadline'), true);
      else if (now >= idleAt) finish(timedOut('heartbeat'), true);
      else arm();
    };
    const onRunAbort = (): void => finish(cancelled(), true);
    runSignal?.addEventListener('abort', onRunAbort, { once: true });
    arm();
    void running.then((outcome) => {
      if (settled) options.onLateResult?.(outcome);
      else finish(outcome, false);
    });
  });
}
