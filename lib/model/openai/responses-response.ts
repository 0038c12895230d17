import { JsonValue } from '../../outcome/json-value';
import { ModelApiError } from '../model-api-error';
import { ModelResponse, ModelStopReason, ModelToolCall } from '../model-types';
import { describe, isRecord, JsonRecord, mapUsage, requestIdOf } from './json-shape';
import { malformed, OPENAI_PROVIDER } from './map-api-error';
import { modelToolCall } from './map-tools';
import { OPENAI_PROVIDER_CONTENT } from './responses-request';

/**
 * Checks a Responses API `response` object and maps it to a {@link ModelResponse}: the `output_text` parts
 * of `message` items are the text, each `function_call` item is a {@link ModelToolCall} (`call_id`, `name`,
 * argument text), in order. When the output holds items the neutral form cannot carry (`reasoning`, and any
 * other type), the whole output is kept as {@link ProviderContent} of provider `openai`, to be sent back.
 *
 * Stop reason: a `refusal` part is `refusal`; status `incomplete` is `max_tokens` for `max_output_tokens`,
 * `refusal` for `content_filter`, else `other`; otherwise `tool_use` with tool calls, else `end_turn`.
 *
 * @throws {@link ModelApiError} `server_error` for a `failed` response (retryable), `malformed_response`
 * when the object is not a well-formed response.
 */
export function fromResponsesResponse(body: unknown, strictTools: ReadonlySet<string>): ModelResponse {
  const requestId = requestIdOf(body);
  const fail = (detail: string): never => {
    throw malformed(detail, undefined, requestId);
  };
  if (!isRecord(body)) return fail(`the response body is not a JSON object (got ${describe(body)})`);
  if (body.status === 'failed') throw failedResponse(body, requestId);
  if (!Array.isArray(body.output)) return fail('the response has no `output` array');
  const text: string[] = [];
  const refusals: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  let keep = false;
  (body.output as unknown[]).forEach((item, index) => {
    if (!isRecord(item) || typeof item.type !== 'string') return fail(`output item ${index} has no \`type\``);
    if (item.type === 'message') {
      if (!Array.isArray(item.content)) return fail(`message item ${index} has no \`content\` array`);
      for (const part of item.content as unknown[]) {
        if (isRecord(part) && part.type === 'output_text' && typeof part.text === 'string') text.push(part.text);
        else if (isRecord(part) && part.type === 'refusal' && typeof part.refusal === 'string')
          refusals.push(part.refusal);
      }
    } else if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || item.call_id.length === 0)
        return fail(`function_call item ${index} has no \`call_id\``);
      if (typeof item.name !== 'string' || item.name.length === 0)
        return fail(`function_call item ${index} has no \`name\``);
      if (typeof item.arguments !== 'string') return fail(`function_call item ${index} has no \`arguments\` text`);
      toolCalls.push(modelToolCall(item.call_id, item.name, item.arguments, strictTools));
    } else {
      keep = true;
    }
  });
  const refused = refusals.length > 0;
  const joined = text.join('');
  return {
    text: refused && joined.length === 0 ? refusals.join('') : joined,
    toolCalls,
    stopReason: responsesStopReason(body, toolCalls.length > 0, refused),
    usage: mapUsage(body.usage, 'input_tokens', 'output_tokens', requestId),
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
    ...(keep
      ? {
          providerContent: {
            provider: OPENAI_PROVIDER_CONTENT,
            blocks: JSON.parse(JSON.stringify(body.output)) as JsonValue[],
          },
        }
      : {}),
  };
}

function responsesStopReason(body: JsonRecord, hasToolCalls: boolean, refused: boolean): ModelStopReason {
  if (refused) return 'refusal';
  if (body.status === 'incomplete') {
    const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
    return reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : 'other';
  }
  return hasToolCalls ? 'tool_use' : 'end_turn';
}

/** The error of a `failed` response (or a stream `error` event): the API failed while answering. */
export function failedResponse(body: JsonRecord, requestId?: string): ModelApiError {
  const error = isRecord(body.error) ? body.error : body;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' && error.message.length > 0 ? error.message : 'the response failed';
  const rateLimited = code === 'rate_limit_exceeded';
  const invalid = code === 'invalid_prompt' || code === 'invalid_request_error';
  return new ModelApiError(rateLimited ? 'rate_limited' : invalid ? 'invalid_request' : 'server_error', {
    provider: OPENAI_PROVIDER,
    detail: message,
    requestId,
    apiErrorType: code,
    retryable: !invalid,
  });
}
