/** A value now, or later. The per-call path stays synchronous when nothing in it is asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/** True for promises and other thenables. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
