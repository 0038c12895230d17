import { ChatMessage, ModelRequest } from '../model-types';
import { argumentsText, OpenAIToolDefinition } from './map-tools';
import { maxTokensParam, toChatToolChoice } from './tool-choice';
import { chatToolImagesMessage, toChatToolContent, toChatUserContent } from './map-user-content';
import { ResolvedOpenAIModelClientOptions } from './openai-model-client-options';
import { chatResponseFormat } from './response-format';

/**
 * Maps wuwe messages to Chat Completions `messages`: the system prompt first as a `system` message; a
 * `user` message as its text or parts (see `toChatUserContent`); an `assistant` message with its text (`null` when
 * empty) and one `function` tool
 * call per {@link ModelToolCall}, in order (one with neither is left out); a `tool` message as a `tool`
 * message answering its `tool_call_id`. Tool messages take text only, so the images of a run of tool
 * messages follow them as one `user` message (see `chatToolImagesMessage`); notes about omitted
 * images stay in the tool message.
 */
export function toChatMessages(
  system: string | undefined,
  messages: readonly ChatMessage[],
): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  if (system !== undefined && system.length > 0) result.push({ role: 'system', content: system });
  let toolRun: Extract<ChatMessage, { role: 'tool' }>[] = [];
  const endToolRun = (): void => {
    const images = chatToolImagesMessage(toolRun);
    if (images !== undefined) result.push(images);
    toolRun = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') endToolRun();
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
        result.push({ role: 'tool', tool_call_id: message.toolCallId, content: toChatToolContent(message) });
        toolRun.push(message);
        break;
    }
  }
  endToolRun();
  return result;
}

/**
 * The Chat Completions body of one request: `model`, `messages`, `stream`, then `tools` (with
 * `strict: true` on the strict ones only: non-strict is the API's default, and some compatible servers
 * refuse the field),
 * `tool_choice`, `parallel_tool_calls`, `max_completion_tokens` (the smaller of the option and the request's),
 * `temperature` and `response_format` (see `toOpenAIJsonSchemaFormat`) when set, `stream_options.include_usage`
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
            function: {
              name: tool.name,
              description: tool.description,
              parameters: tool.parameters,
              ...(tool.strict ? { strict: true } : {}),
            },
          })),
        }
      : {}),
    ...(tools.length > 0 && request.toolChoice !== undefined
      ? { tool_choice: toChatToolChoice(request.toolChoice) }
      : {}),
    ...(tools.length > 0 && parallelToolCalls !== undefined ? { parallel_tool_calls: parallelToolCalls } : {}),
    ...maxTokensParam('max_completion_tokens', maxTokens, request.maxOutputTokens),
    ...(temperature !== undefined ? { temperature } : {}),
    ...chatResponseFormat(request.responseFormat),
  };
}
