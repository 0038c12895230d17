/**
 * Limits applied to model arguments before anything else walks them.
 * `JSON.parse` accepts 100,000 levels of nesting while `JSON.stringify` overflows near 20,000, so
 * depth is checked first, iteratively.
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects. @default 64 */
  readonly maxDepth: number;
  /** Largest argument text in UTF-8 bytes (for objects: the sum of string lengths). @default 8388608 (8 MiB) */
  readonly maxBytes: number;
}

/** Default {@link ArgumentLimits}. */
export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = Object.freeze({ maxDepth: 64, maxBytes: 8 * 1024 * 1024 });
