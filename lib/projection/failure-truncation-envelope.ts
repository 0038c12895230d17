import { ToolOutcome } from '../outcome/tool-outcome';
import { renderableFailure } from '../outcome/render-tool-message';
import { escapedJsonBytes, jsonStringPrefix } from './json-string-prefix';
import { OriginalSize, TruncationEnvelope } from './truncation-envelope';

/** Appended to a shortened failure message. @internal */
export const MESSAGE_TRUNCATED_MARKER = '... [truncated]';

/* eslint-disable max-len -- the example shows the exact text, one line as the model sees it */
/**
 * The truncated form of a failure: the same `{"ok":false,"error":{...}}` object with `code`,
 * `category` and `retryable` unchanged, a shortened `message` ending in `... [truncated]`,
 * `details` (when present and too large) replaced by `{"truncated":true,"preview":"<start of its JSON text>"}`,
 * and the original size appended:
 *
 * ```json
 * {"ok":false,"error":{"code":"tool_error","category":"internal","message":"Stack: ...... [truncated]","retryable":false,
 *  "details":{"truncated":true,"preview":"{\"frames\":[..."}},"truncated":true,"originalBytes":2097152,"originalTokens":524288}
 * ```
 *
 * The preview budget goes to whichever of message and details fits whole, the rest to the other;
 * when neither fits, each gets half.
 * @internal
 */
/* eslint-enable max-len */
export function failureTruncationEnvelope(outcome: ToolOutcome, original: OriginalSize): TruncationEnvelope {
  const error = renderableFailure(outcome).error;
  const message = typeof error.message === 'string' ? error.message : String(error.message);
  const messageBytes = escapedJsonBytes(message);
  const hasDetails = error.details !== undefined;
  const detailsJson = hasDetails ? JSON.stringify(error.details) : '';
  const detailsBytes = Buffer.byteLength(detailsJson, 'utf8');

  function shortMessage(budget: number): string {
    if (messageBytes <= budget) return message;
    return jsonStringPrefix(message, budget).prefix + MESSAGE_TRUNCATED_MARKER;
  }

  function shortDetails(budget: number): unknown {
    if (detailsBytes <= budget) return error.details;
    return { truncated: true, preview: jsonStringPrefix(detailsJson, budget).prefix };
  }

  return {
    slackBytes: 0,
    build(previewBytes: number): string {
      const budget = Math.max(0, previewBytes);
      let messageBudget = budget;
      if (hasDetails && messageBytes + detailsBytes > budget) {
        if (messageBytes <= budget / 2) messageBudget = messageBytes;
        else if (detailsBytes <= budget / 2) messageBudget = budget - detailsBytes;
        else messageBudget = Math.floor(budget / 2);
      }
      const shortened: Record<string, unknown> = {
        code: error.code,
        category: error.category,
        message: shortMessage(messageBudget),
        retryable: error.retryable,
      };
      if (hasDetails) shortened.details = shortDetails(budget - messageBudget);
      return JSON.stringify({
        ok: false,
        error: shortened,
        truncated: true,
        originalBytes: original.bytes,
        originalTokens: original.tokens,
      });
    },
  };
}
