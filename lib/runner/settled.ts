/**
 * A promise already fulfilled with nothing: what a run step (`recordMessage`, `recordToolResults`,
 * `insistOnFinalAnswer`) returns when it finished synchronously, so the loop can skip the `await`
 * and the turn of the microtask queue it costs. Any other promise is awaited as usual. @internal
 */
export const SETTLED: Promise<void> = Promise.resolve();
