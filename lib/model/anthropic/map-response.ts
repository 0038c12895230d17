import type Anthropic from '@anthropic-ai/sdk';
import { JsonObject } from '../../outcome/json-value';
import { ModelResponse, ModelToolCall, ModelUsage } from '../model-types';
import { fromAnthropicStopReason } from './map-stop-reason';
import { ModelApiError } from '../model-api-error';

/** A mapped response, with the raw content blocks kept for replay. */
export interface MappedAnthropicResponse {
  readonly response: ModelResponse;
  readonly content: readonly Anthropic.Messages.ContentBlock[];
}

/**
 * Checks a Messages API response body and maps it to a {@link ModelResponse}:
 * `text` blocks are concatenated into `text`; each `tool_use` block becomes a {@link ModelToolCall}
 * (a copy of its `input` object is the call's `arguments`), in order; other blocks (thinking, server tools)
 * are not part of the neutral response. `stop_reason` is mapped by {@link fromAnthropicStopReason}.
 * `usage.inputTokens` counts every input token, cached or not (`input_tokens` +
 * `cache_creation_input_tokens` + `cache_read_input_tokens`); a body without `usage` counts zero.
 *
 * @throws {@link ModelApiError} `malformed_response` when the body is not a well-formed message.
 */
export function fromAnthropicMessage(body: unknown): MappedAnthropicResponse {
  const requestId = isRecord(body) && typeof body._request_id === 'string' ? body._request_id : undefined;
  const malformed = (detail: string): ModelApiError =>
    new ModelApiError('malformed_response', { provider: 'anthropic', detail, requestId, retryable: false });

  if (!isRecord(body)) throw malformed(`the response body is not a JSON object (got ${describe(body)})`);
  if (!Array.isArray(body.content)) throw malformed('the response has no `content` array');
  if (body.stop_reason !== null && body.stop_reason !== undefined && typeof body.stop_reason !== 'string') {
    throw malformed('the response `stop_reason` is not a string');
  }

  const textParts: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  body.content.forEach((block: unknown, index) => {
    if (!isRecord(block) || typeof block.type !== 'string') throw malformed(`content block ${index} has no \`type\``);
    if (block.type === 'text') {
      if (typeof block.text !== 'string') throw malformed(`text block ${index} has no \`text\` string`);
      textParts.push(block.text);
    } else if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || block.id.length === 0)
        throw malformed(`tool_use block ${index} has no \`id\``);
      if (typeof block.name !== 'string' || block.name.length === 0) {
        throw malformed(`tool_use block ${index} has no \`name\``);
      }
      if (!isRecord(block.input)) throw malformed(`tool_use block ${index} has an \`input\` that is not an object`);
      // A fresh copy: plain JSON of this realm, whatever realm parsed the body, and never shared with the SDK.
      toolCalls.push({
        id: block.id,
        name: block.name,
        arguments: JSON.parse(JSON.stringify(block.input)) as JsonObject,
      });
    }
  });

  return {
    response: {
      text: textParts.join(''),
      toolCalls,
      stopReason: fromAnthropicStopReason(body.stop_reason),
      usage: mapUsage(body.usage, malformed),
      ...(typeof body.model === 'string' ? { model: body.model } : {}),
    },
    content: body.content as Anthropic.Messages.ContentBlock[],
  };
}

function mapUsage(usage: unknown, malformed: (detail: string) => ModelApiError): ModelUsage {
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0 };
  if (!isRecord(usage)) throw malformed('the response `usage` is not an object');
  const count = (field: string, required: boolean): number => {
    const value = usage[field];
    if ((value === undefined || value === null) && !required) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw malformed(`the response \`usage.${field}\` is not a token count`);
    }
    return value;
  };
  const cachedInputTokens = count('cache_read_input_tokens', false);
  return {
    inputTokens: count('input_tokens', true) + count('cache_creation_input_tokens', false) + cachedInputTokens,
    outputTokens: count('output_tokens', true),
    ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return value.length === 0 ? 'an empty body' : `text starting ${JSON.stringify(value.slice(0, 40))}`;
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}
