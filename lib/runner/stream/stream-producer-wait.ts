/**
 * Resolves once `mustWait` answers false: until then it waits for a release, which the consumer sends through
 * `waiters` when it takes an event or leaves, or the signal's abort sends. @internal
 */
export async function waitWhile(mustWait: () => boolean, waiters: (() => void)[], signal: AbortSignal): Promise<void> {
  while (mustWait()) {
    await new Promise<void>((resolve) => {
      const release = (): void => {
        signal.removeEventListener('abort', release);
        resolve();
      };
      waiters.push(release);
      signal.addEventListener('abort', release, { once: true });
    });
  }
}

/** The reason an aborted signal carries, or an `AbortError` when it carries none. @internal */
export function abortReasonOf(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
