import { startTimer, SYSTEM_CLOCK } from '../../runner/runner-clock';

/**
 * Waits until `settled` resolves, `timeoutMs` passes or `signal` aborts, whichever comes first.
 * Never rejects; leaves no timer or listener behind.
 */
export function waitForSettle(settled: Promise<void>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  if (timeoutMs <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let cancelTimer: (() => void) | undefined = undefined;
    function done(): void {
      cancelTimer?.();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    // startTimer: a wait above 2^31-1 ms is waited in steps instead of overflowing into 1 ms.
    cancelTimer = startTimer(SYSTEM_CLOCK, done, timeoutMs);
    signal?.addEventListener('abort', done, { once: true });
    void settled.then(done, done);
  });
}
