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

/** Resolves after `delayMs` on the clock, or early (to `false`) when the signal aborts. */
export function sleepOnClock(clock: RunnerClock, delayMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
