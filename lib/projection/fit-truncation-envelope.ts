import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { estimateTokensChecked, TextMeasure } from './measure-text';
import { TextTokenEstimator } from './text-token-estimator';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import { TruncationEnvelope } from './truncation-envelope';

/** Most candidate previews measured after the smallest envelope. @internal */
export const MAX_PREVIEW_CANDIDATES = 4;

/** Share of the proportional token budget a candidate aims at, leaving room for estimator noise. */
const TOKEN_SAFETY = 0.95;

/** A truncated content with its measures. @internal */
export interface FittedContent extends TextMeasure {
  readonly content: string;
}

/**
 * Picks the largest preview of `envelope` that fits both ceilings, with a bounded number of
 * estimator calls: one for the smallest envelope, then at most {@link MAX_PREVIEW_CANDIDATES}
 * candidates. The first candidate's byte budget is what the byte ceiling leaves, capped by the
 * token room divided by the original's tokens per byte; each candidate over the token ceiling
 * shrinks the budget in proportion to its overshoot. When no candidate fits, the smallest
 * envelope is returned. Throws a {@link ToolOutputProjectionError} of kind `envelope` when even
 * the smallest envelope does not fit.
 * @internal
 */
export function fitTruncationEnvelope(
  envelope: TruncationEnvelope,
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator,
): FittedContent {
  const smallest = envelope.build(0);
  const smallestBytes = Buffer.byteLength(smallest, 'utf8');
  if (smallestBytes > policy.maxBytes)
    throw new ToolOutputProjectionError(
      'envelope',
      `the smallest truncation envelope has ${smallestBytes} bytes, over the ceiling of ${policy.maxBytes} bytes`,
    );
  const smallestTokens = estimateTokensChecked(smallest, estimator);
  if (smallestTokens > policy.maxTokens)
    throw new ToolOutputProjectionError(
      'envelope',
      `the smallest truncation envelope has ${smallestTokens} estimated tokens, over the ceiling of ${policy.maxTokens} tokens`,
    );

  const tokenRoom = policy.maxTokens - smallestTokens;
  let budget = policy.maxBytes - smallestBytes - envelope.slackBytes;
  if (original.tokens > 0 && original.bytes > 0) {
    const tokensPerByte = original.tokens / original.bytes;
    budget = Math.min(budget, Math.floor((tokenRoom * TOKEN_SAFETY) / tokensPerByte));
  }
  for (let candidate = 0; candidate < MAX_PREVIEW_CANDIDATES && budget > 0; candidate++) {
    const content = envelope.build(budget);
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > policy.maxBytes) {
      budget -= bytes - policy.maxBytes + 1;
      continue;
    }
    const tokens = estimateTokensChecked(content, estimator);
    if (tokens <= policy.maxTokens) return { content, bytes, tokens };
    const previewTokens = Math.max(1, tokens - smallestTokens);
    budget = Math.min(budget - 1, Math.floor((budget * tokenRoom * TOKEN_SAFETY) / previewTokens));
  }
  return { content: smallest, bytes: smallestBytes, tokens: smallestTokens };
}
