/**
 * A promise already fulfilled with nothing: what a run step (`recordMessage`, `recordToolResults`,
 * `insistOnFinalAnswer`) returns when it finished synchronously, so the loop can skip the `await`
 * and the turn of the microtask queue it costs. Any other promise is awaited as usual. @internal
 */
export const SETTLED: Promise<void> = Promise.resolve();

/**
 * A promise rejected with `error`, whatever it is: what a step that is not an `async` function returns for
 * what it threw, so its callers see a rejection, as they would from an `async` one. @internal
 */
export function rejectedWith<T>(error: unknown): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on whatever was thrown, unchanged
  return Promise.reject(error);
}
