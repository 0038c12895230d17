import type Anthropic from '@anthropic-ai/sdk';
import { AssistantChatMessage, ChatMessage, ToolMessagePart, UserContentPart } from '../model-types';
import { ModelApiError } from '../model-api-error';
import { replayedToolInput } from '../replayed-tool-input';

type ContentBlockParam = Anthropic.Messages.ContentBlockParam;

/** Looks up the exact content of an assistant turn to send back (see {@link AnthropicTurnReplay}). */
export type AssistantContentLookup = (message: AssistantChatMessage) => readonly ContentBlockParam[] | undefined;

/**
 * Maps wuwe messages to Messages API `messages`.
 *
 * - a `user` message becomes a `text` block of a user turn, or one block per part: `text`, `image`
 *   (base64 or url source) and `document` (base64 PDF, plain text, or url source);
 * - an `assistant` message becomes a `text` block (when its text is not empty) followed by one
 *   `tool_use` block per tool call, in order; its remembered content is sent instead when `lookup` has it;
 *   an assistant message with neither text nor tool calls is left out (the API refuses empty turns); a
 *   call whose arguments are not a JSON object (refused by the runner, its failure in the tool result)
 *   is sent with input `{}`, as the API takes objects only (see {@link replayedToolInput});
 * - a `tool` message becomes a `tool_result` block (`tool_use_id`, the content string, and
 *   `is_error: true` for a failure); with `parts` (images of the outcome), its content is a list of
 *   blocks instead: a `text` block of the content (when not empty), then one `image` block (base64
 *   source) or `text` block per part.
 *
 * Consecutive messages of the same API role share one turn, so consecutive tool messages become ONE
 * user turn of `tool_result` blocks, in order.
 *
 * @throws {@link ModelApiError} `invalid_request` for a user or tool-result part the API cannot take; nothing is sent.
 */
export function toAnthropicMessages(
  messages: readonly ChatMessage[],
  lookup?: AssistantContentLookup,
): Anthropic.Messages.MessageParam[] {
  const turns: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: readonly ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append(
          'user',
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : message.content.map(userBlock),
        );
        break;
      case 'assistant':
        append('assistant', withObjectInputs(lookup?.(message)) ?? assistantBlocks(message));
        break;
      case 'tool':
        append('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content:
              message.parts === undefined || message.parts.length === 0
                ? message.content
                : toolResultBlocks(message.content, message.parts),
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  return turns;
}

/** A Tool message's content with its parts as `tool_result` content blocks: text, then images and notes. */
function toolResultBlocks(
  content: string,
  parts: readonly ToolMessagePart[],
): Anthropic.Messages.ToolResultBlockParam['content'] {
  const blocks: Exclude<Anthropic.Messages.ToolResultBlockParam['content'], string | undefined> =
    content.length > 0 ? [{ type: 'text', text: content }] : [];
  for (const part of parts) {
    if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
    else if (!IMAGE_TYPES.includes(part.mediaType))
      throw unsupported(
        `an image of type ${part.mediaType} in a tool result (Anthropic takes ${IMAGE_TYPES.join(', ')})`,
      );
    else
      blocks.push({
        type: 'image',
        source: { type: 'base64', media_type: part.mediaType as 'image/png', data: part.data },
      });
  }
  return blocks;
}

/** The image media types the Messages API accepts. */
const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** One part of a user message as a Messages API block. */
function userBlock(part: UserContentPart): ContentBlockParam {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      if ('url' in part) return { type: 'image', source: { type: 'url', url: part.url } };
      if (!IMAGE_TYPES.includes(part.mediaType))
        throw unsupported(`an image of type ${part.mediaType} (Anthropic takes ${IMAGE_TYPES.join(', ')})`);
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType as 'image/png', data: part.data } };
    case 'document': {
      const title = part.title === undefined ? {} : { title: part.title };
      if ('url' in part) return { type: 'document', source: { type: 'url', url: part.url }, ...title };
      if (part.mediaType === 'text/plain')
        return {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: Buffer.from(part.data, 'base64').toString('utf8') },
          ...title,
        };
      if (part.mediaType !== 'application/pdf')
        throw unsupported(`a document of type ${part.mediaType} (Anthropic takes application/pdf and text/plain)`);
      return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, ...title };
    }
    default:
      throw unsupported(`a user content part of type ${JSON.stringify((part as { type?: unknown }).type)}`);
  }
}

function unsupported(what: string): ModelApiError {
  return new ModelApiError('invalid_request', {
    provider: 'anthropic',
    detail: `cannot send ${what}`,
    retryable: false,
  });
}

function assistantBlocks(message: AssistantChatMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  if (message.content.length > 0) blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: replayedToolInput(call.arguments) });
  }
  return blocks;
}

/** Remembered or stored blocks as sent: a `tool_use` block whose input is not an object is sent with `{}`. */
function withObjectInputs(blocks: readonly ContentBlockParam[] | undefined): readonly ContentBlockParam[] | undefined {
  return blocks?.map((block) => {
    if (block.type !== 'tool_use') return block;
    const input = replayedToolInput(block.input);
    return input === block.input ? block : { ...block, input };
  });
}
