import { TextTokenEstimator } from './text-token-estimator';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import { messageOf } from '../errors/message-of';

/** Exact UTF-8 bytes and estimated tokens of one text. */
export interface TextMeasure {
  readonly bytes: number;
  readonly tokens: number;
}

/**
 * One estimator call, checked: a throwing or misbehaving estimator becomes a
 * {@link ToolOutputProjectionError} of kind `estimator`; a fractional estimate is rounded up.
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
  return (
    typeof estimator === 'object' &&
    estimator !== null &&
    typeof (estimator as TextTokenEstimator).estimateTokens === 'function'
  );
}
