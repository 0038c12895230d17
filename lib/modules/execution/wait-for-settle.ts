/**
 * Waits until `settled` resolves, `timeoutMs` passes or `signal` aborts, whichever comes first.
 * Never rejects; leaves no timer or listener behind.
 */
export function waitForSettle(settled: Promise<void>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  if (timeoutMs <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined = undefined;
    function done(): void {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    timer = setTimeout(done, timeoutMs);
    signal?.addEventListener('abort', done, { once: true });
    void settled.then(done, done);
  });
}
