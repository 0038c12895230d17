/** Time source of the runner; inject a fake in tests. */
export interface RunnerClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` after `delayMs`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, delayMs: number): unknown;
  /** Cancels a timer set by `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now` and the global timers. */
export const SYSTEM_CLOCK: RunnerClock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (callback: () => void, delayMs: number): unknown => setTimeout(callback, delayMs),
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});

/**
 * The longest delay one `setTimeout` can wait (2^31-1 ms, about 24.8 days). Node turns a longer
 * delay into 1 ms with a `TimeoutOverflowWarning`, so no runner timer ever asks for more.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once, after `delayMs` on the clock; returns the function that cancels it. Every
 * runner timer (deadline, heartbeat idle limit, retry backoff) goes through here: a delay above
 * {@link MAX_TIMER_DELAY_MS} is waited in steps of at most that many milliseconds (one timer at a
 * time), so it neither overflows nor fires early. A non-finite delay never fires.
 */
export function startTimer(clock: RunnerClock, callback: () => void, delayMs: number): () => void {
  let remainingMs = Number.isNaN(delayMs) ? Infinity : Math.max(0, delayMs);
  let handle: unknown;
  let cancelled = false;
  const arm = (): void => {
    const stepMs = Math.min(remainingMs, MAX_TIMER_DELAY_MS);
    remainingMs -= stepMs;
    handle = clock.setTimeout(() => {
      if (cancelled) return;
      if (remainingMs > 0) arm();
      else callback();
    }, stepMs);
  };
  arm();
  return () => {
    cancelled = true;
    clock.clearTimeout(handle);
  };
}

/** Resolves after `delayMs` on the clock, or early (to `false`) when the signal aborts. */
export function sleepOnClock(clock: RunnerClock, delayMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = startTimer(
      clock,
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      },
      delayMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
