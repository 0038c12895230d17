import type Anthropic from '@anthropic-ai/sdk';
import { LlmTool } from '../../contract/llm-tool';
import { ModelApiError } from '../model-api-error';

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
