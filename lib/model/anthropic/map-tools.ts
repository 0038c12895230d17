import type Anthropic from '@anthropic-ai/sdk';
import { LlmTool } from '../../contract/llm-tool';
import { ModelApiError } from '../model-api-error';
import { ModelToolChoice } from '../model-types';

/**
 * Maps wuwe tools to Messages API tool definitions: `name`, `description` and `input_schema`
 * (the tool's JSON Schema, sent unchanged).
 *
 * @throws {@link ModelApiError} `invalid_request` when an input schema is not an object schema
 * (the Messages API accepts only `type: 'object'`); nothing is sent.
 */
export function toAnthropicTools(tools: readonly LlmTool[]): Anthropic.Messages.Tool[] {
  return tools.map((tool) => {
    if (tool.inputSchema?.type !== 'object') {
      throw new ModelApiError('invalid_request', {
        provider: 'anthropic',
        detail: `tool '${tool.name}' has an input schema whose type is not 'object'`,
        retryable: false,
      });
    }
    return {
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Messages.Tool.InputSchema,
    };
  });
}

/** Maps a tool choice to the Messages API `tool_choice`: `auto`, `any` (for `required`), `none`, or `tool` by name. */
export function toAnthropicToolChoice(choice: ModelToolChoice): Anthropic.Messages.ToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.tool };
}
