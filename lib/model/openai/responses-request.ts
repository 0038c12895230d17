import { JsonValue } from '../../outcome/json-value';
import { AssistantChatMessage, ChatMessage, ModelRequest, ProviderContent } from '../model-types';
import { argumentsText, OpenAIToolDefinition } from './map-tools';
import { maxTokensParam, toResponsesToolChoice } from './tool-choice';
import { toResponsesToolOutput, toResponsesUserContent } from './map-user-content';
import { ResolvedOpenAIModelClientOptions } from './openai-model-client-options';
import { responsesTextFormat } from './response-format';

/** The `provider` of the {@link ProviderContent} this client writes. */
export const OPENAI_PROVIDER_CONTENT = 'openai';

/**
 * Maps wuwe messages to Responses API `input` items: a `user` message as a user message item; an
 * `assistant` message as its stored output items when it carries this client's {@link ProviderContent}
 * for the same tool calls (reasoning items are sent back as they came), otherwise as an assistant
 * message item (when it has text) and one `function_call` item per tool call; a `tool` message as a
 * `function_call_output` item (its output a list of `input_text` and `input_image` items when it has
 * images, see `toResponsesToolOutput`).
 */
export function toResponsesInput(messages: readonly ChatMessage[]): unknown[] {
  const input: unknown[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        input.push({ role: 'user', content: toResponsesUserContent(message.content) });
        break;
      case 'assistant': {
        const stored = storedOpenAIItems(message);
        if (stored !== undefined) {
          input.push(...stored);
          break;
        }
        if (message.content.length > 0) input.push({ role: 'assistant', content: message.content });
        for (const call of message.toolCalls) {
          input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: argumentsText(call) });
        }
        break;
      }
      case 'tool':
        input.push({
          type: 'function_call_output',
          call_id: message.toolCallId,
          output: toResponsesToolOutput(message),
        });
        break;
    }
  }
  return input;
}

/**
 * The output items stored with an assistant message, when they are this turn's: written by this client
 * and holding exactly the message's tool-call ids, in order.
 */
export function storedOpenAIItems(message: AssistantChatMessage): readonly JsonValue[] | undefined {
  const stored: ProviderContent | undefined = message.providerContent;
  if (stored?.provider !== OPENAI_PROVIDER_CONTENT || !Array.isArray(stored.blocks)) return undefined;
  const ids = stored.blocks.flatMap((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) && item.type === 'function_call'
      ? [String(item.call_id)]
      : [],
  );
  return JSON.stringify(ids) === JSON.stringify(message.toolCalls.map((call) => call.id)) ? stored.blocks : undefined;
}

/**
 * The Responses API body of one request: `model`, `input`, `stream`, `store`, then `instructions`,
 * `tools`, `tool_choice`, `parallel_tool_calls`, `max_output_tokens` (the smaller of the option and the request's),
 * `temperature` and `text.format` (the response format) when set,
 * `include:
 * ['reasoning.encrypted_content']` when not stored (so reasoning can be sent back), and `extraParams`.
 */
export function buildResponsesBody(
  options: ResolvedOpenAIModelClientOptions,
  request: ModelRequest,
  tools: readonly OpenAIToolDefinition[],
  stream: boolean,
): Record<string, unknown> & { model: string; stream: boolean } {
  const { model, maxTokens, temperature, parallelToolCalls, store, extraParams } = options;
  const instructions = request.system ?? options.system;
  return {
    ...extraParams,
    model,
    input: toResponsesInput(request.messages),
    stream,
    store,
    ...(store ? {} : { include: ['reasoning.encrypted_content'] }),
    ...(instructions !== undefined && instructions.length > 0 ? { instructions } : {}),
    ...(tools.length > 0
      ? {
          tools: tools.map((tool) => ({
            type: 'function',
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
            strict: tool.strict,
          })),
        }
      : {}),
    ...(tools.length > 0 && request.toolChoice !== undefined
      ? { tool_choice: toResponsesToolChoice(request.toolChoice) }
      : {}),
    ...(tools.length > 0 && parallelToolCalls !== undefined ? { parallel_tool_calls: parallelToolCalls } : {}),
    ...maxTokensParam('max_output_tokens', maxTokens, request.maxOutputTokens),
    ...(temperature !== undefined ? { temperature } : {}),
    ...responsesTextFormat(request.responseFormat),
  };
}
