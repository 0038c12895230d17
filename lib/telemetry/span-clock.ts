/** Epoch milliseconds (fractional) on one tree's clock. */
export type SpanClock = () => number;

/**
 * The clock of a root run's spans and of every span below it: `Date.now()` when the run starts, moved on by
 * `performance.now()`. Every span of the tree takes its start and end from it, so a span always ends after it starts
 * and inside its parent: the SDK's own default anchors each span on its own `Date.now()` (whole milliseconds, and a
 * clock that can be stepped), so a child ending a fraction of a millisecond before its parent could be stamped after
 * it, and a time read from `performance.now()` alone drifts from `Date.now()` in a long-lived process.
 */
export function treeClock(): SpanClock {
  const anchorMs = Date.now() - performance.now();
  return () => anchorMs + performance.now();
}
