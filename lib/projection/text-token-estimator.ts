/**
 * Estimates how many model tokens a text costs. The projection layer depends only on this one
 * method, so an exact tokenizer can be injected in place of {@link fallbackTextTokenEstimator}.
 *
 * An estimator must return a finite, non-negative number for every string; a fractional result
 * is rounded up. Anything else (a throw, `NaN`, `Infinity`, a negative) is reported as an
 * `estimator` failure by the projection functions.
 */
export interface TextTokenEstimator {
  /** Estimated number of tokens of `text`. */
  estimateTokens(text: string): number;
}
