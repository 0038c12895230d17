import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import { AssistantChatMessage, ChatMessage, ModelToolCall, ToolChatMessage, UserContentPart } from '../model-types';
import { replayedToolInput } from '../replayed-tool-input';
import { AssistantPromptPart, storedAiSdkContent } from './ai-sdk-provider-content';

/**
 * Maps a request's system prompt and wuwe messages to a `LanguageModelV3Prompt`.
 *
 * - the system prompt (when not empty) becomes the first message, `role: 'system'`;
 * - a `user` message becomes a user message with one `text` part;
 * - an `assistant` message becomes a `text` part (when its text is not empty) followed by one
 *   `tool-call` part per call (its `input` the decoded arguments object), in order; when the message
 *   carries this client's {@link ProviderContent} for the same tool calls and text, those parts are sent
 *   instead, unchanged (reasoning and the provider's metadata included); an assistant message with
 *   neither text nor tool calls is left out; a call whose arguments are not a JSON object (refused by
 *   the runner, its failure in the tool result) is sent with input `{}` (see {@link replayedToolInput});
 * - consecutive `tool` messages become ONE tool message of `tool-result` parts, in order, with
 *   output `{ type: 'text' }` or, for a failure, `{ type: 'error-text' }`; a tool message with `parts`
 *   (images of the outcome) has output `{ type: 'content' }`: a `text` item of its content (when not
 *   empty), then one `image-data` (base64) or `text` item per part.
 *
 */
export function toAiSdkPrompt(system: string | undefined, messages: readonly ChatMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  if (system !== undefined && system.length > 0) prompt.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content) });
        break;
      case 'assistant': {
        const stored = storedAiSdkContent(message);
        const content = stored === undefined ? assistantParts(message) : stored.map(withReplayableInput);
        if (content.length > 0) prompt.push({ role: 'assistant', content: [...content] });
        break;
      }
      case 'tool': {
        const last = prompt[prompt.length - 1];
        if (last?.role === 'tool') last.content.push(toolResultPart(message));
        else prompt.push({ role: 'tool', content: [toolResultPart(message)] });
        break;
      }
    }
  }
  return prompt;
}

function assistantParts(message: AssistantChatMessage): AssistantPromptPart[] {
  const parts: AssistantPromptPart[] = [];
  if (message.content.length > 0) parts.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) parts.push(toolCallPart(call));
  return parts;
}

function toolCallPart(call: ModelToolCall): LanguageModelV3ToolCallPart {
  return { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: replayedToolInput(call.arguments) };
}

/** A stored part as sent: a tool call keeps its input when it is a JSON object, else it is sent with `{}`. */
function withReplayableInput(part: AssistantPromptPart): AssistantPromptPart {
  if (part.type !== 'tool-call') return part;
  const input = replayedToolInput(part.input);
  return input === part.input ? part : { ...part, input };
}

function toolResultPart(message: ToolChatMessage): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: toolResultOutput(message),
  };
}

function toolResultOutput(message: ToolChatMessage): LanguageModelV3ToolResultPart['output'] {
  if (message.parts !== undefined && message.parts.length > 0) {
    const value: Extract<LanguageModelV3ToolResultPart['output'], { type: 'content' }>['value'] =
      message.content.length > 0 ? [{ type: 'text', text: message.content }] : [];
    for (const part of message.parts)
      value.push(
        part.type === 'text'
          ? { type: 'text', text: part.text }
          : { type: 'image-data', data: part.data, mediaType: part.mediaType },
      );
    return { type: 'content', value };
  }
  return message.isError ? { type: 'error-text', value: message.content } : { type: 'text', value: message.content };
}

/**
 * A user message's content as AI SDK parts: text parts, and images and documents as `file` parts (a URL, or base64
 * data).
 */
function userParts(
  content: string | readonly UserContentPart[],
): Extract<LanguageModelV3Message, { role: 'user' }>['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text' as const, text: part.text };
    const fallback = part.type === 'image' ? 'image/*' : 'application/octet-stream';
    if ('url' in part) return { type: 'file' as const, data: new URL(part.url), mediaType: fallback };
    return {
      type: 'file' as const,
      data: part.data,
      mediaType: part.mediaType,
      ...(part.type === 'document' && part.title !== undefined ? { filename: part.title } : {}),
    };
  });
}
