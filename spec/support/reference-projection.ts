/**
 * The reference the projection of `lib/projection/project-tool-output-for-model.ts` must agree with,
 * byte for byte (content and report) and kind for kind (failures): a frozen copy of the projection as
 * it was when the whole Tool message was rendered as one string (`renderToolMessage`), measured with
 * `Buffer.byteLength`, and every item of a truncated array serialized up front, up to the byte ceiling.
 * The envelopes that did not change (failure, text) and the fitting are shared with the library.
 * Never optimize or change this file.
 */
import { ToolOutputProjectionPolicy } from '../../lib/contract/tool-descriptor';
import { messageOf } from '../../lib/errors/message-of';
import { JsonValue } from '../../lib/outcome/json-value';
import { renderToolMessage } from '../../lib/outcome/render-tool-message';
import { ToolOutcome } from '../../lib/outcome/tool-outcome';
import {
  isWellFormedProjectionPolicy,
  projectionPolicyProblems,
} from '../../lib/projection/check-tool-output-projection-policy';
import { ITEMS_NOTICE, PREVIEW_NOTICE } from '../../lib/projection/data-truncation-envelope';
import { failureTruncationEnvelope } from '../../lib/projection/failure-truncation-envelope';
import { fallbackTextTokenEstimator } from '../../lib/projection/fallback-text-token-estimator';
import { fitTruncationEnvelope } from '../../lib/projection/fit-truncation-envelope';
import { jsonStringPrefix } from '../../lib/projection/json-string-prefix';
import { estimateTokensChecked, isTextTokenEstimator, TextMeasure } from '../../lib/projection/measure-text';
import { TextTokenEstimator } from '../../lib/projection/text-token-estimator';
import { textTruncationEnvelope } from '../../lib/projection/text-truncation-envelope';
import { ToolOutputProjectionError } from '../../lib/projection/tool-output-projection-error';
import {
  ToolOutputProjection,
  ToolOutputProjectionFailure,
  ToolOutputProjectionReport,
  ToolOutputProjectionTrigger,
} from '../../lib/projection/tool-output-projection-result';
import { OriginalSize, TruncationEnvelope } from '../../lib/projection/truncation-envelope';
import { referenceEstimateLargeTextTokens } from './reference-token-estimator';

/** What `projectWithin(outcome, policy, estimator)` must answer. */
export function referenceProjectWithin(
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

  const rendered = render(outcome);
  const bytes = Buffer.byteLength(rendered, 'utf8');
  if (bytes <= policy.maxBytes) {
    const tokens = estimateTokensChecked(rendered, estimator);
    if (tokens <= policy.maxTokens)
      return { content: rendered, report: report(false, bytes, tokens, bytes, tokens, policy, null) };
    return truncated(outcome, rendered, { bytes, tokens }, policy, estimator);
  }
  return truncated(outcome, rendered, { bytes, tokens: referenceEstimateLargeTextTokens(rendered) }, policy, estimator);
}

function truncated(
  outcome: ToolOutcome,
  rendered: string,
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
  estimator: TextTokenEstimator,
): ToolOutputProjection {
  const trigger = triggerOf(original, policy);
  const fitted = fitTruncationEnvelope(envelopeOf(outcome, rendered, original, policy), original, policy, estimator);
  return {
    content: fitted.content,
    report: report(true, original.bytes, original.tokens, fitted.bytes, fitted.tokens, policy, trigger),
  };
}

function render(outcome: ToolOutcome): string {
  if (typeof outcome !== 'object' || outcome === null)
    throw new ToolOutputProjectionError(
      'serialization',
      `expected a tool outcome object, got ${outcome === null ? 'null' : typeof outcome}`,
    );
  let rendered: unknown;
  try {
    rendered = renderToolMessage(outcome);
  } catch (cause) {
    throw new ToolOutputProjectionError(
      'serialization',
      `the outcome could not be rendered as a Tool message: ${messageOf(cause)}`,
      { cause },
    );
  }
  if (typeof rendered !== 'string')
    throw new ToolOutputProjectionError(
      'serialization',
      `the outcome rendered as ${typeof rendered}, not as text (data that JSON cannot represent?)`,
    );
  return rendered;
}

function envelopeOf(
  outcome: ToolOutcome,
  rendered: string,
  original: TextMeasure,
  policy: ToolOutputProjectionPolicy,
): TruncationEnvelope {
  if (!outcome.ok) return failureTruncationEnvelope(outcome, original);
  if (outcome.data !== undefined)
    return referenceDataTruncationEnvelope(outcome.data, rendered, original, policy.maxBytes);
  return textTruncationEnvelope(rendered, original);
}

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

/** What `dataTruncationEnvelope` built, given the whole JSON text of `data`. */
export function referenceDataTruncationEnvelope(
  data: JsonValue,
  json: string,
  original: OriginalSize,
  maxBytes: number,
): TruncationEnvelope {
  if (Array.isArray(data) && data.length > 0) {
    const prefix = itemsEnvelopePrefix(data.length, original);
    const room = maxBytes - Buffer.byteLength(`${prefix}${data.length},"items":[]}`, 'utf8');
    const items = serializeItemPrefix(data, room, original.bytes === json.length);
    if (items.json.length > 0) return itemsEnvelope(prefix, items, data.length);
  }
  return {
    slackBytes: 0,
    build(previewBytes: number): string {
      const preview = jsonStringPrefix(json, Math.max(0, previewBytes)).prefix;
      return JSON.stringify({
        truncated: true,
        notice: PREVIEW_NOTICE,
        originalBytes: original.bytes,
        originalTokens: original.tokens,
        preview,
      });
    },
  };
}

interface ItemPrefix {
  readonly json: readonly string[];
  readonly cumulativeBytes: readonly number[];
}

function serializeItemPrefix(data: readonly JsonValue[], maxPreviewBytes: number, asciiOnly: boolean): ItemPrefix {
  const json: string[] = [];
  const cumulativeBytes = [0];
  let total = 0;
  for (let index = 0; index < data.length; index++) {
    const item = (JSON.stringify(data[index]) as string | undefined) ?? 'null';
    total += (asciiOnly ? item.length : Buffer.byteLength(item, 'utf8')) + (index > 0 ? 1 : 0);
    if (total > maxPreviewBytes) break;
    json.push(item);
    cumulativeBytes.push(total);
  }
  return { json, cumulativeBytes };
}

function itemsEnvelopePrefix(totalItems: number, original: OriginalSize): string {
  return (
    `{"truncated":true,"notice":${JSON.stringify(ITEMS_NOTICE)},"originalBytes":${original.bytes},` +
    `"originalTokens":${original.tokens},"totalItems":${totalItems},"shownItems":`
  );
}

function itemsEnvelope(prefix: string, items: ItemPrefix, totalItems: number): TruncationEnvelope {
  return {
    slackBytes: String(totalItems).length - 1,
    build(previewBytes: number): string {
      let shown = 0;
      while (shown < items.json.length && items.cumulativeBytes[shown + 1] <= previewBytes) shown++;
      return `${prefix}${shown},"items":[${items.json.slice(0, shown).join(',')}]}`;
    },
  };
}
