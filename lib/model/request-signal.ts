/** A signal for one request that follows a longer-lived one, see {@link requestSignal}. */
export interface RequestSignal {
  /** Aborts when the parent aborts (with its reason); give this one to the SDK. */
  readonly signal: AbortSignal;
  /** Detaches from the parent; call it once the request (or its stream) is over. */
  release(): void;
}

/**
 * A signal of its own for one SDK request, aborted with `parent`. Provider SDKs add an abort listener
 * to the signal of every request and never remove it, so a run's signal handed to them as is would
 * collect one listener (holding the request's controller) per model step; the SDK gets this signal
 * instead, and `release()` removes the one listener the parent holds.
 */
export function requestSignal(parent: AbortSignal): RequestSignal {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const follow = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', follow) };
}
