import { TextTokenEstimator } from './text-token-estimator';

/**
 * The UTF-8-aware fallback estimator, used when no tokenizer is injected.
 *
 * It counts a quarter token per ASCII character and one token per UTF-16 code unit outside ASCII:
 * a CJK character or a letter with a combining mark costs at least one token, an emoji outside the
 * Basic Multilingual Plane (a surrogate pair) two. Only two native measures are taken, the UTF-8
 * byte length `B` (`Buffer.byteLength`) and the UTF-16 length `L`, so no JavaScript loop visits the
 * characters. Every non-ASCII code unit adds at least one byte over its unit count, so the number of
 * non-ASCII units `U` is at most `min(B - L, L)`; the estimate takes that upper bound:
 *
 * ```
 * U = min(B - L, L)
 * tokens = ceil((L - U) / 4) + U
 * ```
 *
 * The result is exact for pure ASCII (`ceil(B / 4)`), for text whose non-ASCII characters are all
 * two-byte (Latin accents, Greek, Cyrillic) and for pure CJK; text mixing ASCII with three-byte
 * characters is over-estimated (such a character counts up to 1.75 tokens). It never counts fewer
 * than one token per CJK character or emoji, which keeps ceilings safe where tokenizers are dense.
 */
export class FallbackTextTokenEstimator implements TextTokenEstimator {
  /** Estimated tokens of `text` (see the class documentation for the formula). */
  estimateTokens(text: string): number {
    return this.estimateTokensFromLengths(Buffer.byteLength(text, 'utf8'), text.length);
  }

  /**
   * The same estimate from a UTF-8 byte length and a UTF-16 length already measured, so a caller
   * that needs the byte length anyway measures the text once.
   */
  estimateTokensFromLengths(utf8Bytes: number, utf16Length: number): number {
    const nonAsciiUnits = Math.min(utf8Bytes - utf16Length, utf16Length);
    return Math.ceil((utf16Length - nonAsciiUnits) / 4) + nonAsciiUnits;
  }
}

/** The shared instance of {@link FallbackTextTokenEstimator}; the default estimator of every projection. */
export const fallbackTextTokenEstimator: FallbackTextTokenEstimator = Object.freeze(new FallbackTextTokenEstimator());
