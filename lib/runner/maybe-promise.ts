/**
 * A value now, or later: what a step may answer (an override may be synchronous or asynchronous; the runner awaits
 * either).
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * True for promises and other thenables. Never throws: a value whose `then` getter or proxy trap
 * throws is not a thenable (whoever reads it next sees the throw where it is handled).
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return typeof (value as PromiseLike<unknown>).then === 'function';
  } catch {
    return false;
  }
}

/**
 * Settles as `promise` does, or rejects with the signal's reason as soon as `signal` aborts, so a
 * callee that ignores its signal cannot keep the caller waiting. A late rejection of `promise` is
 * caught (it cannot become an unhandled rejection).
 */
export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  return new Promise<T>((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
    const onAbort = (): void => reject(abortReason(signal));
    if (signal.aborted) {
      // Given up at once, the promise is still observed: its later rejection must not end the process.
      Promise.resolve(promise).then(undefined, () => undefined);
      return onAbort();
    }
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        reject(error);
      },
    );
  });
}

/** The reason an aborted signal carries, or an `AbortError` when it carries none. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
