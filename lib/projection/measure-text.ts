import { FallbackTextTokenEstimator } from './fallback-text-token-estimator';
import { TextTokenEstimator } from './text-token-estimator';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import { messageOf } from '../errors/message-of';

/** Exact UTF-8 bytes and estimated tokens of one text. */
export interface TextMeasure {
  readonly bytes: number;
  readonly tokens: number;
}

/**
 * Measures `text`: exact UTF-8 bytes and one estimator call. The fallback estimator reuses the byte
 * length instead of measuring twice. A throwing or misbehaving estimator becomes a
 * {@link ToolOutputProjectionError} of kind `estimator`; a fractional estimate is rounded up.
 * @internal
 */
export function measureText(text: string, estimator: TextTokenEstimator): TextMeasure {
  const bytes = Buffer.byteLength(text, 'utf8');
  return { bytes, tokens: estimateTokensChecked(text, estimator, bytes) };
}

/**
 * One estimator call, checked: see {@link measureText}. `knownBytes` lets the fallback estimator
 * skip its own byte count.
 * @internal
 */
export function estimateTokensChecked(text: string, estimator: TextTokenEstimator, knownBytes?: number): number {
  let tokens: unknown;
  try {
    tokens =
      knownBytes !== undefined && isUnmodifiedFallback(estimator)
        ? estimator.estimateTokensFromLengths(knownBytes, text.length)
        : estimator.estimateTokens(text);
  } catch (cause) {
    throw new ToolOutputProjectionError('estimator', `the token estimator threw: ${describe(cause)}`, { cause });
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

function isUnmodifiedFallback(estimator: TextTokenEstimator): estimator is FallbackTextTokenEstimator {
  return (
    estimator instanceof FallbackTextTokenEstimator &&
    estimator.estimateTokens === FallbackTextTokenEstimator.prototype.estimateTokens &&
    estimator.estimateTokensFromLengths === FallbackTextTokenEstimator.prototype.estimateTokensFromLengths
  );
}

/** A short description of a thrown value. @internal */
export function describe(value: unknown): string {
  return messageOf(value);
}
