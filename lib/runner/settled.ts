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

/**
 * Calls `record` on each item in order, the next only once the write before is done: synchronously
 * while each answers {@link SETTLED} (then it answers `SETTLED` too), and from the first pending write
 * on in one `async` continuation. What `record` throws becomes the rejection. @internal
 */
export function recordInOrder<T>(items: readonly T[], record: (item: T) => Promise<void>): Promise<void> {
  try {
    for (let index = 0; index < items.length; index++) {
      const recorded = record(items[index]);
      if (recorded !== SETTLED) return recordRestAfter(items, index + 1, record, recorded);
    }
    return SETTLED;
  } catch (error) {
    return rejectedWith(error);
  }
}

/** {@link recordInOrder} from `index` on, once `pending` (the write of the item before) is done. */
async function recordRestAfter<T>(items: readonly T[], index: number, record: (item: T) => Promise<void>, pending: Promise<void>): Promise<void> {
  await pending;
  for (; index < items.length; index++) await record(items[index]);
}
