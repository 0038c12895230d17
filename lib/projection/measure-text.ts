import { estimateLargeTextTokens } from './fallback-text-token-estimator';
import { TextTokenEstimator } from './text-token-estimator';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import { messageOf } from '../errors/message-of';

/** Exact UTF-8 bytes and estimated tokens of one text. */
export interface TextMeasure {
  readonly bytes: number;
  readonly tokens: number;
}

/**
 * Measures `text`: exact UTF-8 bytes and one estimator call. A throwing or misbehaving estimator
 * becomes a {@link ToolOutputProjectionError} of kind `estimator`; a fractional estimate is rounded up.
 * @internal
 */
export function measureText(text: string, estimator: TextTokenEstimator): TextMeasure {
  return { bytes: Buffer.byteLength(text, 'utf8'), tokens: estimateTokensChecked(text, estimator) };
}

/**
 * Measures an original that may be sent whole: exact UTF-8 bytes, and the estimator's count when it
 * is within `maxBytes`. An original over `maxBytes` is never sent whole, so its tokens (reported,
 * and deciding only whether the trigger says `both`) are the fallback's sampled estimate
 * (`estimateLargeTextTokens`): the estimator counts only text that may be sent.
 * @internal
 */
export function measureOriginal(text: string, estimator: TextTokenEstimator, maxBytes: number): TextMeasure {
  const bytes = Buffer.byteLength(text, 'utf8');
  return { bytes, tokens: bytes <= maxBytes ? estimateTokensChecked(text, estimator) : estimateLargeTextTokens(text) };
}

/**
 * One estimator call, checked: see {@link measureText}.
 * @internal
 */
export function estimateTokensChecked(text: string, estimator: TextTokenEstimator): number {
  let tokens: unknown;
  try {
    tokens = estimator.estimateTokens(text);
  } catch (cause) {
    throw new ToolOutputProjectionError('estimator', `the token estimator threw: ${messageOf(cause)}`, { cause });
  }
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0)
    throw new ToolOutputProjectionError(
      'estimator',
      `the token estimator must return a finite number >= 0, got ${typeof tokens === 'number' ? String(tokens) : typeof tokens}`,
    );
  return Math.ceil(tokens);
}

/** True when `estimator` is a valid estimator object. @internal */
export function isTextTokenEstimator(estimator: unknown): estimator is TextTokenEstimator {
  return typeof estimator === 'object' && estimator !== null && typeof (estimator as TextTokenEstimator).estimateTokens === 'function';
}
