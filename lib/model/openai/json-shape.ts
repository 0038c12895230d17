import { ModelUsage } from '../model-types';
import { malformed } from './map-api-error';

/** A JSON object of a response body, fields unchecked. */
export type JsonRecord = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `_request_id` the SDK puts on a response object, when there is one. */
export function requestIdOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body._request_id === 'string' ? body._request_id : undefined;
}

/**
 * Maps a `usage` object: `inputField` and `outputField` are token counts (absent usage counts zero).
 * @throws {@link ModelApiError} `malformed_response` when a count is not a non-negative number.
 */
export function mapUsage(usage: unknown, inputField: string, outputField: string, requestId?: string): ModelUsage {
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0 };
  if (!isRecord(usage)) throw malformed('the response `usage` is not an object', undefined, requestId);
  const count = (field: string): number => {
    const value = usage[field];
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw malformed(`the response \`usage.${field}\` is not a token count`, undefined, requestId);
    }
    return value;
  };
  const cachedInputTokens = cachedOf(usage, inputField);
  return {
    inputTokens: count(inputField),
    outputTokens: count(outputField),
    ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

/**
 * The input tokens read from the prompt cache: `prompt_tokens_details.cached_tokens` (Chat Completions) or
 * `input_tokens_details.cached_tokens` (Responses); 0 when absent or not a count.
 */
function cachedOf(usage: JsonRecord, inputField: string): number {
  const details = usage[inputField === 'prompt_tokens' ? 'prompt_tokens_details' : 'input_tokens_details'];
  const cached = isRecord(details) ? details.cached_tokens : undefined;
  return typeof cached === 'number' && Number.isSafeInteger(cached) && cached >= 0 ? cached : 0;
}

/** A short description of a value that is not what was expected. */
export function describe(value: unknown): string {
  if (typeof value === 'string')
    return value.length === 0 ? 'an empty body' : `text starting ${JSON.stringify(value.slice(0, 40))}`;
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}
