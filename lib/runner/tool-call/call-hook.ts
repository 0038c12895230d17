import { isPromiseLike, MaybePromise } from '../maybe-promise';

/** How a host hook call ended: its value, a throw or rejection, or the run's abort while it was pending. */
export type HookResult<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'aborted' };

/**
 * Calls a host hook and never throws: a synchronous throw and a rejection both become `failed`.
 * A synchronous hook stays synchronous. With a `signal`, a pending hook is raced against it: when
 * the signal aborts first the result is `aborted` at once and the hook's late answer is ignored.
 */
export function callHook<T>(invoke: () => T | PromiseLike<T>, signal?: AbortSignal): MaybePromise<HookResult<T>> {
  let answer: T | PromiseLike<T>;
  try {
    answer = invoke();
  } catch (error) {
    return { kind: 'failed', error };
  }
  if (!isPromiseLike(answer)) return { kind: 'value', value: answer };
  const settled = Promise.resolve(answer).then(
    (value): HookResult<T> => ({ kind: 'value', value }),
    (error: unknown): HookResult<T> => ({ kind: 'failed', error }),
  );
  if (signal === undefined) return settled;
  if (signal.aborted) return { kind: 'aborted' };
  return new Promise((resolve) => {
    const onAbort = (): void => resolve({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    void settled.then((result) => {
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    });
  });
}

export { messageOf } from '../../errors/message-of';
