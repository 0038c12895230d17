import { MIN_PROJECTION_BYTES, MIN_PROJECTION_TOKENS } from '../contract/check-descriptor';
import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { JsonValue } from '../outcome/json-value';
import { dataTruncationEnvelope } from './data-truncation-envelope';
import { failureTruncationEnvelope } from './failure-truncation-envelope';
import { fallbackTextTokenEstimator } from './fallback-text-token-estimator';
import { estimateTokensChecked, isTextTokenEstimator } from './measure-text';
import { messageOf } from '../errors/message-of';
import { TextTokenEstimator } from './text-token-estimator';
import { textTruncationEnvelope } from './text-truncation-envelope';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import { ToolOutputProjectionPolicyError } from './tool-output-projection-policy-error';
import { OriginalSize } from './truncation-envelope';

/** Sizes quoted in the envelopes measured by the check: ten digits, more than any string holds. */
const LARGEST_ORIGINAL: OriginalSize = { bytes: 9_999_999_999, tokens: 9_999_999_999 };

/**
 * Problems of the numeric ceilings: each must be a safe integer, `maxBytes >= 256` and
 * `maxTokens >= 128`. Empty when the policy is well-formed.
 * @internal
 */
export function projectionPolicyProblems(policy: unknown): string[] {
  if (typeof policy !== 'object' || policy === null)
    return ['the policy must be an object with maxBytes and maxTokens'];
  const { maxBytes, maxTokens } = policy as Record<string, unknown>;
  const problems: string[] = [];
  if (!isIntegerAtLeast(maxBytes, MIN_PROJECTION_BYTES))
    problems.push(`maxBytes must be an integer >= ${MIN_PROJECTION_BYTES}, got ${show(maxBytes)}`);
  if (!isIntegerAtLeast(maxTokens, MIN_PROJECTION_TOKENS))
    problems.push(`maxTokens must be an integer >= ${MIN_PROJECTION_TOKENS}, got ${show(maxTokens)}`);
  return problems;
}

/**
 * True when {@link projectionPolicyProblems} finds nothing, without building the list: the check
 * every projection makes before it measures anything.
 * @internal
 */
export function isWellFormedProjectionPolicy(policy: unknown): policy is ToolOutputProjectionPolicy {
  if (typeof policy !== 'object' || policy === null) return false;
  const { maxBytes, maxTokens } = policy as Record<string, unknown>;
  return isIntegerAtLeast(maxBytes, MIN_PROJECTION_BYTES) && isIntegerAtLeast(maxTokens, MIN_PROJECTION_TOKENS);
}

/**
 * The smallest truncation envelope of each shape, for the worst case the check assumes: a plain
 * text, a structured success (array and JSON-preview forms) and a failure with details, the
 * longest standard code and category, and ten-digit sizes.
 * @internal
 */
export function smallestTruncationEnvelopes(): ReadonlyArray<{ readonly shape: string; readonly content: string }> {
  const failure = {
    ok: false as const,
    error: {
      code: 'tool_output_projection_failed',
      category: 'precondition' as const,
      message: 'm',
      retryable: false,
      details: {},
    },
  };
  return [
    { shape: 'truncated text', content: textTruncationEnvelope('', LARGEST_ORIGINAL).build(0) },
    {
      shape: 'truncated structured success',
      content: dataTruncationEnvelope({}, () => '{}', 2, LARGEST_ORIGINAL, 0).build(0),
    },
    {
      shape: 'truncated array success',
      content: dataTruncationEnvelope(new Array<JsonValue>(2 ** 32 - 1), () => '', 0, LARGEST_ORIGINAL, 1_000).build(0),
    },
    { shape: 'truncated structured failure', content: failureTruncationEnvelope(failure, LARGEST_ORIGINAL).build(0) },
  ];
}

/**
 * Checks a projection policy at configuration time, before any tool runs, and throws a
 * {@link ToolOutputProjectionPolicyError} when it cannot be used:
 *
 * - `invalid_policy`: `maxBytes` or `maxTokens` is not an integer (NaN, Infinity, a fraction) or
 *   is below 256 bytes / 128 tokens;
 * - `envelope`: the smallest truncated text, structured success or structured failure (with
 *   ten-digit sizes and the longest standard error code) does not fit under both ceilings, as
 *   measured with `estimator`;
 * - `estimator`: the estimator threw or returned `NaN`, a non-finite or a negative number.
 *
 * Calls the estimator once per envelope shape (four calls on short strings).
 */
export function checkToolOutputProjectionPolicy(
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator = fallbackTextTokenEstimator,
): void {
  const problems = projectionPolicyProblems(policy);
  if (problems.length > 0) throw new ToolOutputProjectionPolicyError('invalid_policy', problems);
  if (!isTextTokenEstimator(estimator))
    throw new ToolOutputProjectionPolicyError('estimator', [
      'the estimator must be an object with an estimateTokens(text) method',
    ]);
  for (const { shape, content } of smallestTruncationEnvelopes()) {
    const bytes = Buffer.byteLength(content, 'utf8');
    let tokens: number;
    try {
      tokens = estimateTokensChecked(content, estimator);
    } catch (error) {
      throw new ToolOutputProjectionPolicyError('estimator', [
        ToolOutputProjectionError.isInstance(error) ? error.reason : messageOf(error),
      ]);
    }
    if (bytes > policy.maxBytes)
      problems.push(`the smallest ${shape} has ${bytes} bytes, over maxBytes ${policy.maxBytes}`);
    if (tokens > policy.maxTokens)
      problems.push(`the smallest ${shape} has ${tokens} estimated tokens, over maxTokens ${policy.maxTokens}`);
  }
  if (problems.length > 0) throw new ToolOutputProjectionPolicyError('envelope', problems);
}

function isIntegerAtLeast(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}
