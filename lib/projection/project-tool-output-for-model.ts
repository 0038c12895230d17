import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { ToolOutcome } from '../outcome/tool-outcome';
import { isWellFormedProjectionPolicy, projectionPolicyProblems } from './check-tool-output-projection-policy';
import { dataTruncationEnvelope } from './data-truncation-envelope';
import { failureTruncationEnvelope } from './failure-truncation-envelope';
import { fallbackTextTokenEstimator } from './fallback-text-token-estimator';
import { FittedContent, fitTruncationEnvelope, MAX_PREVIEW_CANDIDATES } from './fit-truncation-envelope';
import { MeasuredOriginal, measuredWhole, measureInParts, renderWhole } from './measure-original';
import { estimateTokensChecked, isTextTokenEstimator, TextMeasure } from './measure-text';
import { TextTokenEstimator } from './text-token-estimator';
import { messageOf } from '../errors/message-of';
import { textTruncationEnvelope } from './text-truncation-envelope';
import { ToolOutputProjectionError } from './tool-output-projection-error';
import {
  ToolOutputProjection,
  ToolOutputProjectionFailure,
  ToolOutputProjectionOptions,
  ToolOutputProjectionReport,
  ToolOutputProjectionResult,
  ToolOutputProjectionTrigger,
} from './tool-output-projection-result';
import { TruncationEnvelope } from './truncation-envelope';

/**
 * The most estimator calls one projection makes: one on the rendered message (only when it is
 * within `maxBytes`), one on the smallest truncation envelope, and at most four candidate previews.
 * Output that fits makes exactly one. The estimator never sees a text over `maxBytes`.
 */
export const MAX_ESTIMATOR_CALLS_PER_PROJECTION = 2 + MAX_PREVIEW_CANDIDATES;

/**
 * Projects an outcome into the Tool message the model sees, within both ceilings of
 * `options.policy`. Never throws: every failure comes back as `{ ok: false, error: { kind, message } }`.
 *
 * - Output under both ceilings is exactly `renderToolMessage(outcome)`, byte for byte.
 * - Plain text over a ceiling becomes a warning with the original's size in bytes and estimated
 *   tokens, followed by a head and a tail of the original, cut on character boundaries.
 * - A structured success becomes a JSON object with `"truncated": true`, a `notice`, the original
 *   size, and either the first whole items of an array (`totalItems`, `shownItems`, `items`) or the
 *   start of the JSON text as a string (`preview`).
 * - A failure stays `{"ok":false,"error":{...}}` with `code`, `category` and `retryable` unchanged;
 *   only `message` and `details` are shortened, and `"truncated": true` with the original size is added.
 *
 * Cost is linear in the size of the output: the original is rendered and its bytes measured once
 * (an array of 64 items or more in parts, so no string of its whole size is built; over 2 Mi code
 * units its items are read again for the parts the 32 token samples fall in: see `renderArrayInParts`);
 * building each candidate costs O(maxBytes), and a truncated array serializes only the items its
 * candidates show, plus one. The estimator is called at most
 * `MAX_ESTIMATOR_CALLS_PER_PROJECTION` times, only on texts within `maxBytes`: an original over
 * `maxBytes` has its tokens estimated by the fallback from samples (see `estimateLargeTextTokens`).
 */
export function tryProjectToolOutputForModel(
  outcome: ToolOutcome,
  options: ToolOutputProjectionOptions,
): ToolOutputProjectionResult {
  const projected = projectWithin(outcome, options?.policy, options?.estimator);
  return isProjectionFailure(projected)
    ? { ok: false, error: projected }
    : { ok: true, content: projected.content, report: projected.report };
}

/**
 * The throwing form of {@link tryProjectToolOutputForModel}: returns `{ content, report }` or throws
 * a {@link ToolOutputProjectionError} (code `tool_output_projection_failed`) with the same `kind`.
 */
export function projectToolOutputForModel(
  outcome: ToolOutcome,
  options: ToolOutputProjectionOptions,
): ToolOutputProjection {
  const projected = projectWithin(outcome, options?.policy, options?.estimator);
  if (isProjectionFailure(projected)) throw new ToolOutputProjectionError(projected.kind, projected.message);
  return projected;
}

/**
 * {@link tryProjectToolOutputForModel} with the policy and the estimator as arguments, returning the
 * projection itself or the failure (no options object and no result wrapper per call): the form the
 * runner calls for every tool result. Never throws.
 * @internal
 */
export function projectWithin(
  outcome: ToolOutcome,
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator | undefined,
): ToolOutputProjection | ToolOutputProjectionFailure {
  try {
    return projectOrThrow(outcome, policy, estimator ?? fallbackTextTokenEstimator);
  } catch (error) {
    return ToolOutputProjectionError.isInstance(error)
      ? { kind: error.kind, message: error.reason }
      : { kind: 'envelope', message: `the truncation envelope could not be built: ${messageOf(error)}` };
  }
}

/** True for the failure form of {@link projectWithin}'s answer. @internal */
export function isProjectionFailure(
  projected: ToolOutputProjection | ToolOutputProjectionFailure,
): projected is ToolOutputProjectionFailure {
  return (projected as Partial<ToolOutputProjection>).content === undefined;
}

/**
 * A successful projection: output that fits is sent as rendered (one estimator call), the rest is
 * cut to fit. An original over `maxBytes` is never sent whole, so its tokens (reported, and deciding
 * only whether the trigger says `both`) are the fallback's sampled estimate (`estimateLargeTextTokens`):
 * the estimator counts only text that may be sent.
 */
function projectOrThrow(
  outcome: ToolOutcome,
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator,
): ToolOutputProjection {
  if (!isWellFormedProjectionPolicy(policy))
    throw new ToolOutputProjectionError('invalid_policy', projectionPolicyProblems(policy).join('; '));
  if (!isTextTokenEstimator(estimator))
    throw new ToolOutputProjectionError(
      'estimator',
      'the estimator must be an object with an estimateTokens(text) method',
    );

  const { maxBytes } = policy;
  // A large array is measured in parts; any other outcome is rendered whole and, when it fits, sent
  // as it is with no measure object built (the usual small result of a call).
  const parted = measureInParts(outcome, maxBytes);
  const text = parted === undefined ? renderWhole(outcome) : parted.text;
  const bytes = parted === undefined ? Buffer.byteLength(text as string, 'utf8') : parted.bytes;
  // Within `maxBytes` the whole text is at hand (rendered in parts or not): sent as it is when its tokens fit too.
  const tokens = bytes <= maxBytes ? estimateTokensChecked(text as string, estimator) : undefined;
  if (tokens !== undefined && tokens <= policy.maxTokens)
    return { content: text as string, report: report(false, bytes, tokens, bytes, tokens, policy, null) };
  const measured = parted ?? measuredWhole(text as string, bytes, maxBytes);
  return truncated(outcome, measured, { bytes, tokens: tokens ?? measured.sampledTokens }, policy, estimator);
}

function truncated(
  outcome: ToolOutcome,
  measured: MeasuredOriginal,
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator,
): ToolOutputProjection {
  const trigger = triggerOf(original, policy);
  const fitted: FittedContent = fitTruncationEnvelope(
    envelopeOf(outcome, measured, original, policy),
    original,
    policy,
    estimator,
  );
  return {
    content: fitted.content,
    report: report(true, original.bytes, original.tokens, fitted.bytes, fitted.tokens, policy, trigger),
  };
}

function envelopeOf(
  outcome: ToolOutcome,
  measured: MeasuredOriginal,
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
): TruncationEnvelope {
  if (!outcome.ok) return failureTruncationEnvelope(outcome, original);
  if (outcome.data !== undefined)
    return dataTruncationEnvelope(outcome.data, measured.head, measured.length, original, policy.maxBytes);
  // A text outcome is always rendered whole.
  return textTruncationEnvelope(measured.text ?? measured.head(), original);
}

/** Which ceiling(s) an original that does not fit exceeds. */
function triggerOf(
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
): Exclude<ToolOutputProjectionTrigger, null> {
  const overBytes = original.bytes > policy.maxBytes;
  const overTokens = original.tokens > policy.maxTokens;
  if (overBytes && overTokens) return 'both';
  return overBytes ? 'bytes' : 'tokens';
}

function report(
  truncated: boolean,
  originalBytes: number,
  originalTokens: number,
  projectedBytes: number,
  projectedTokens: number,
  policy: ToolOutputProjectionPolicy,
  trigger: ToolOutputProjectionTrigger,
): ToolOutputProjectionReport {
  return Object.freeze({
    truncated,
    originalBytes,
    originalTokens,
    projectedBytes,
    projectedTokens,
    maxBytes: policy.maxBytes,
    maxTokens: policy.maxTokens,
    trigger,
  });
}
