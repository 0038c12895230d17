import { ChatMessage, ModelRequest } from '../model-types';
import { argumentsText, OpenAIToolDefinition } from './map-tools';
import { toChatUserContent } from './map-user-content';
import { ResolvedOpenAIModelClientOptions } from './openai-model-client-options';
import { chatResponseFormat } from './response-format';

/**
 * Maps wuwe messages to Chat Completions `messages`: the system prompt first as a `system` message; a
 * `user` message as its text or parts (see `toChatUserContent`); an `assistant` message with its text (`null` when empty) and one `function` tool
 * call per {@link ModelToolCall}, in order (one with neither is left out); a `tool` message as a `tool`
 * message answering its `tool_call_id`.
 */
export function toChatMessages(system: string | undefined, messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  if (system !== undefined && system.length > 0) result.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        result.push({ role: 'user', content: toChatUserContent(message.content) });
        break;
      case 'assistant':
        if (message.content.length === 0 && message.toolCalls.length === 0) break;
        result.push({
          role: 'assistant',
          content: message.content.length > 0 ? message.content : null,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: argumentsText(call) },
                })),
              }
            : {}),
        });
        break;
      case 'tool':
        result.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
    }
  }
  return result;
}

/**
 * The Chat Completions body of one request: `model`, `messages`, `stream`, then `tools` (with
 * `strict: true` on the strict ones only: non-strict is the API's default, and some compatible servers
 * refuse the field),
 * `parallel_tool_calls`, `max_completion_tokens`, `temperature` and `response_format` (see `toOpenAIJsonSchemaFormat`) when set, `stream_options.include_usage`
 * when streaming (so the last chunk carries usage), and the `extraParams` option.
 */
export function buildChatBody(
  options: ResolvedOpenAIModelClientOptions,
  request: ModelRequest,
  tools: readonly OpenAIToolDefinition[],
  stream: boolean,
): Record<string, unknown> & { model: string; stream: boolean } {
  const { model, maxTokens, temperature, parallelToolCalls, extraParams } = options;
  return {
    ...extraParams,
    model,
    messages: toChatMessages(request.system ?? options.system, request.messages),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    ...(tools.length > 0
      ? {
          tools: tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...(tool.strict ? { strict: true } : {}) },
          })),
        }
      : {}),
    ...(tools.length > 0 && parallelToolCalls !== undefined ? { parallel_tool_calls: parallelToolCalls } : {}),
    ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...chatResponseFormat(request.responseFormat),
  };
}
