import type { LanguageModelV3Content } from '@ai-sdk/provider';
import { ModelApiError } from '../model-api-error';
import { ModelResponse, ModelToolCall, ModelUsage } from '../model-types';
import { aiSdkProviderContent, AssistantPromptPart, toAssistantPromptPart } from './ai-sdk-provider-content';
import { fromAiSdkFinishReason } from './map-finish-reason';

/**
 * Checks a `doGenerate` result and maps it to a {@link ModelResponse}: `text` parts are joined into
 * `text`; each client-executed `tool-call` part becomes a {@link ModelToolCall} whose `arguments` is
 * the call's JSON text (empty text is `'{}'`; text that is not JSON is kept as it came), in order; the finish reason is
 * mapped by
 * {@link fromAiSdkFinishReason}; usage counts every input token (cached or not) and every output
 * token (reasoning included), a missing count being zero. The turn's parts go to `providerContent`
 * when the wuwe form loses something (see {@link aiSdkProviderContent}).
 *
 * @throws {@link ModelApiError} `malformed_response` when the result is not a well-formed generate result.
 */
export function fromAiSdkGenerateResult(result: unknown, provider: string): ModelResponse {
  const malformed = (detail: string): ModelApiError =>
    new ModelApiError('malformed_response', { provider, detail, retryable: false });
  if (!isRecord(result)) throw malformed('the model returned no generate result object');
  if (!Array.isArray(result.content)) throw malformed('the generate result has no `content` array');
  const parts: AssistantPromptPart[] = [];
  result.content.forEach((content: unknown, index) => {
    checkContent(content, index, malformed);
    const part = toAssistantPromptPart(content);
    if (part !== undefined) parts.push(part);
  });
  const response = responseFromParts(
    parts,
    result.finishReason,
    usageOf(result.usage, malformed),
    modelIdOf(result.response),
  );
  const providerContent = aiSdkProviderContent(parts);
  return providerContent === undefined ? response : { ...response, providerContent };
}

/** The wuwe response of a turn's assistant parts (shared by the generate and the stream mapping). */
export function responseFromParts(
  parts: readonly AssistantPromptPart[],
  finishReason: unknown,
  usage: ModelUsage,
  model: string | undefined,
): ModelResponse {
  const toolCalls: ModelToolCall[] = [];
  const text: string[] = [];
  for (const part of parts) {
    if (part.type === 'text') text.push(part.text);
    if (part.type === 'tool-call' && part.providerExecuted !== true) {
      // Input that was not JSON stays the model's own text, so the runner reports it as such.
      toolCalls.push({
        id: part.toolCallId,
        name: part.toolName,
        arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
      });
    }
  }
  return {
    text: text.join(''),
    toolCalls,
    stopReason: fromAiSdkFinishReason(finishReason),
    usage,
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * Token usage of a `LanguageModelV3Usage` (`inputTokens.total`, `outputTokens.total`); a flat count,
 * as older specifications sent it, is read too. Missing counts are zero.
 *
 * @throws {@link ModelApiError} `malformed_response` (through `malformed`) when a count is not a token count.
 */
export function usageOf(usage: unknown, malformed: (detail: string) => ModelApiError): ModelUsage {
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0 };
  if (!isRecord(usage)) throw malformed('the usage is not an object');
  const count = (field: 'inputTokens' | 'outputTokens'): number => {
    const value = usage[field];
    const total = isRecord(value) ? value.total : value;
    if (total === undefined || total === null) return 0;
    if (typeof total !== 'number' || !Number.isFinite(total) || total < 0)
      throw malformed(`the usage \`${field}\` is not a token count`);
    return total;
  };
  const input = usage.inputTokens;
  // V3 nests the cache reads (`inputTokens.cacheRead`); V2 sent a flat `cachedInputTokens`.
  const cacheRead = isRecord(input) ? input.cacheRead : usage.cachedInputTokens;
  const cachedInputTokens =
    typeof cacheRead === 'number' && Number.isSafeInteger(cacheRead) && cacheRead > 0 ? cacheRead : 0;
  return {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

function modelIdOf(metadata: unknown): string | undefined {
  return isRecord(metadata) && typeof metadata.modelId === 'string' && metadata.modelId.length > 0
    ? metadata.modelId
    : undefined;
}

/** Checks the fields the mapping reads from one content part. */
function checkContent(
  content: unknown,
  index: number,
  malformed: (detail: string) => ModelApiError,
): asserts content is LanguageModelV3Content {
  if (!isRecord(content) || typeof content.type !== 'string') throw malformed(`content part ${index} has no \`type\``);
  if ((content.type === 'text' || content.type === 'reasoning') && typeof content.text !== 'string') {
    throw malformed(`${content.type} part ${index} has no \`text\` string`);
  }
  if (content.type === 'tool-call') {
    if (typeof content.toolCallId !== 'string' || content.toolCallId.length === 0)
      throw malformed(`tool-call part ${index} has no \`toolCallId\``);
    if (typeof content.toolName !== 'string' || content.toolName.length === 0)
      throw malformed(`tool-call part ${index} has no \`toolName\``);
    if (typeof content.input !== 'string')
      throw malformed(`tool-call part ${index} has an \`input\` that is not JSON text`);
  }
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
