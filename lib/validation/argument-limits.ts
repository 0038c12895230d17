/**
 * Limits applied to model arguments before anything else walks them.
 * `JSON.parse` accepts 100,000 levels of nesting while `JSON.stringify` overflows near 20,000, so
 * depth is checked first, iteratively. Size and element count are checked on the text before it is
 * parsed, so no input inside the limits costs more than a bounded parse and walk.
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects. @default 64 */
  readonly maxDepth: number;
  /**
   * Largest arguments in UTF-8 bytes. Text is measured as it is; an already-parsed object (as
   * provider SDKs hand it over) as its compact JSON text: the UTF-8 bytes of its strings and keys
   * with their quotes, the literals, brackets, commas and colons, and at least one byte per number
   * (escapes are counted as the character they stand for). No text is serialized to measure it.
   * @default 8388608 (8 MiB)
   */
  readonly maxBytes: number;
  /**
   * Most JSON values in the arguments: every array, object, string, number, boolean and null counts
   * once, the root included (`{"a":[1,2]}` holds 4). Bounds the memory of parsing and the time of
   * validation: 8 MiB of `[]` would otherwise be 2.8 million arrays.
   * @default 50000 (when omitted, the value of {@link DEFAULT_ARGUMENT_LIMITS})
   */
  readonly maxElements?: number;
}

/** Default {@link ArgumentLimits}. */
export const DEFAULT_ARGUMENT_LIMITS: Required<ArgumentLimits> = Object.freeze({
  maxDepth: 64,
  maxBytes: 8 * 1024 * 1024,
  maxElements: 50_000,
});

/** The element limit in force: `limits.maxElements`, or the default one. @internal */
export function maxElementsOf(limits: ArgumentLimits): number {
  return limits.maxElements ?? DEFAULT_ARGUMENT_LIMITS.maxElements;
}
