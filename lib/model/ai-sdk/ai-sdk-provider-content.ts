import type {
  LanguageModelV3Content,
  LanguageModelV3FilePart,
  LanguageModelV3ReasoningPart,
  LanguageModelV3TextPart,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultPart,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import { JsonValue } from '../../outcome/json-value';
import { AssistantChatMessage, ProviderContent } from '../model-types';

/** The `provider` of the {@link ProviderContent} that {@link AiSdkModelClient} writes. */
export const AI_SDK_PROVIDER_CONTENT = 'ai-sdk';

/** A part of an assistant message of a `LanguageModelV3Prompt`. */
export type AssistantPromptPart =
  | LanguageModelV3TextPart
  | LanguageModelV3FilePart
  | LanguageModelV3ReasoningPart
  | LanguageModelV3ToolCallPart
  | LanguageModelV3ToolResultPart;

/**
 * The assistant prompt part that sends a piece of generated content back to the model, its provider
 * metadata as the part's `providerOptions` (how the AI SDK itself replays a turn): text, reasoning
 * (with, e.g., Anthropic's signature or OpenAI's encrypted reasoning), tool calls (the input decoded
 * from its JSON text) and results of provider-executed tools, files (as base64). Sources and approval
 * requests are not sent back: `undefined`.
 */
export function toAssistantPromptPart(content: LanguageModelV3Content): AssistantPromptPart | undefined {
  const providerOptions = metadataOf(content.providerMetadata);
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text, ...providerOptions };
    case 'reasoning':
      return { type: 'reasoning', text: content.text, ...providerOptions };
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: content.toolCallId,
        toolName: content.toolName,
        input: decodeInput(content.input),
        ...(content.providerExecuted === true ? { providerExecuted: true } : {}),
        ...providerOptions,
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        toolCallId: content.toolCallId,
        toolName: content.toolName,
        output:
          content.isError === true
            ? { type: 'error-json', value: content.result }
            : { type: 'json', value: content.result },
        ...providerOptions,
      };
    case 'file':
      return {
        type: 'file',
        mediaType: content.mediaType,
        data: typeof content.data === 'string' ? content.data : Buffer.from(content.data).toString('base64'),
        ...providerOptions,
      };
    default:
      return undefined;
  }
}

/**
 * The {@link ProviderContent} of a generated turn, when its wuwe form (text and tool calls) loses
 * something the provider needs back: reasoning, files, provider-executed tools, or provider metadata
 * on any part. `undefined` when the turn rebuilds exactly.
 */
export function aiSdkProviderContent(parts: readonly AssistantPromptPart[]): ProviderContent | undefined {
  const rebuildsExactly = parts.every(
    (part) =>
      (part.type === 'text' || (part.type === 'tool-call' && part.providerExecuted !== true)) &&
      part.providerOptions === undefined,
  );
  if (rebuildsExactly) return undefined;
  return { provider: AI_SDK_PROVIDER_CONTENT, blocks: parts as unknown as readonly JsonValue[] };
}

/**
 * The prompt parts stored with an assistant message by this client, when they are this turn's: the
 * client-executed tool calls carry exactly the message's ids, and the text parts join to the message's text.
 */
export function storedAiSdkContent(message: AssistantChatMessage): readonly AssistantPromptPart[] | undefined {
  const stored = message.providerContent;
  if (stored?.provider !== AI_SDK_PROVIDER_CONTENT || !Array.isArray(stored.blocks)) return undefined;
  const parts = stored.blocks as unknown as readonly AssistantPromptPart[];
  if (!parts.every((part) => typeof part === 'object' && part !== null && typeof part.type === 'string'))
    return undefined;
  const ids = parts.flatMap((part) =>
    part.type === 'tool-call' && part.providerExecuted !== true ? [part.toolCallId] : [],
  );
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const sameCalls = JSON.stringify(ids) === JSON.stringify(message.toolCalls.map((call) => call.id));
  return sameCalls && text === message.content ? parts : undefined;
}

function metadataOf(metadata: SharedV3ProviderMetadata | undefined): { providerOptions?: SharedV3ProviderMetadata } {
  return metadata !== undefined && Object.keys(metadata).length > 0 ? { providerOptions: metadata } : {};
}

/**
 * A tool call's JSON input text as a value: the object it encodes; empty text is `{}`. Text that is not
 * the JSON of an object (not JSON, an array, a scalar) stays the model's own text, so the runner reports
 * it as it came; it is sent back as `{}` (see `replayedToolInput`).
 */
export function decodeInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    const value = JSON.parse(input) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : input;
  } catch {
    return input;
  }
}
