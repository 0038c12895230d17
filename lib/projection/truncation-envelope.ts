/**
 * A family of truncated renderings of one outcome, indexed by a preview budget in bytes.
 *
 * `build(previewBytes)` returns a text of at most `build(0)`'s bytes + `previewBytes` + `slackBytes`
 * UTF-8 bytes; `build(0)` is the smallest envelope (the warning alone, no preview). Larger budgets
 * show more of the original.
 * @internal
 */
export interface TruncationEnvelope {
  /** The truncated rendering with a preview of at most `previewBytes` bytes. */
  build(previewBytes: number): string;
  /** Extra bytes a non-empty preview may add beyond its budget (e.g. longer counters). */
  readonly slackBytes: number;
}

/** Sizes of the original, quoted in every envelope. @internal */
export interface OriginalSize {
  readonly bytes: number;
  readonly tokens: number;
}
