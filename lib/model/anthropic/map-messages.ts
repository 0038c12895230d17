import type Anthropic from '@anthropic-ai/sdk';
import { JsonObject } from '../../outcome/json-value';
import { ChatMessage, ModelToolCall } from '../model-types';
import { ModelApiError } from '../model-api-error';

type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** Looks up the exact content of an assistant turn to send back (see {@link AnthropicTurnReplay}). */
export type AssistantContentLookup = (message: AssistantMessage) => readonly ContentBlockParam[] | undefined;

/**
 * Maps wuwe messages to Messages API `messages`.
 *
 * - a `user` message becomes a `text` block of a user turn;
 * - an `assistant` message becomes a `text` block (when its text is not empty) followed by one
 *   `tool_use` block per tool call, in order; its remembered content is sent instead when `lookup` has it;
 *   an assistant message with neither text nor tool calls is left out (the API refuses empty turns);
 * - a `tool` message becomes a `tool_result` block (`tool_use_id`, the content string, and
 *   `is_error: true` for a failure).
 *
 * Consecutive messages of the same API role share one turn, so consecutive tool messages become ONE
 * user turn of `tool_result` blocks, in order.
 *
 * @throws {@link ModelApiError} `invalid_request` when a tool call's `arguments` is not a JSON object
 * (or JSON text of one); nothing is sent.
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
        append('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant':
        append('assistant', lookup?.(message) ?? assistantBlocks(message));
        break;
      case 'tool':
        append('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  return turns;
}

function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  if (message.content.length > 0) blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call) });
  }
  return blocks;
}

function toolInput(call: ModelToolCall): JsonObject {
  let input: unknown = call.arguments;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      input = undefined;
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ModelApiError('invalid_request', {
      provider: 'anthropic',
      detail: `the arguments of tool call '${call.id}' (${call.name}) are not a JSON object`,
      retryable: false,
    });
  }
  return input as JsonObject;
}
