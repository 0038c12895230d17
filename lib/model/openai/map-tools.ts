import { LlmTool } from '../../contract/llm-tool';
import { JsonSchema } from '../../contract/json-schema';
import { ModelApiError } from '../model-api-error';
import { ModelToolCall } from '../model-types';
import { OPENAI_PROVIDER } from './map-api-error';
import { toStrictSchema } from './strict-schema';

/** One tool as sent: its name, description, the schema sent, and whether it is sent strict. */
export interface OpenAIToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/**
 * The tools of one request. With `strict`, each tool's input schema is rewritten by
 * {@link toStrictSchema} and sent with `strict: true`; a tool whose schema has no strict form (a free-form
 * object) is sent as it is, not strict. Without `strict`, every tool is sent as it is, not strict (the
 * Responses API gets `strict: false`, as it would otherwise default to strict).
 *
 * @throws {@link ModelApiError} `invalid_request` when an input schema is not an object schema; nothing is sent.
 */
export function toOpenAITools(tools: readonly LlmTool[], strict: boolean): OpenAIToolDefinition[] {
  return tools.map((tool) => {
    if (tool.inputSchema?.type !== 'object') {
      throw new ModelApiError('invalid_request', {
        provider: OPENAI_PROVIDER,
        detail: `tool '${tool.name}' has an input schema whose type is not 'object'`,
        retryable: false,
      });
    }
    const strictSchema = strict ? toStrictSchema(tool.inputSchema) : undefined;
    return {
      name: tool.name,
      description: tool.description,
      parameters: strictSchema ?? tool.inputSchema,
      strict: strictSchema !== undefined,
    };
  });
}

/** The names of the tools sent strict: their calls are marked `nullsAreAbsent`. */
export function strictToolNames(tools: readonly OpenAIToolDefinition[]): ReadonlySet<string> {
  return new Set(tools.filter((tool) => tool.strict).map((tool) => tool.name));
}

/** A tool call of the answer, marked `nullsAreAbsent` when its tool was sent strict. */
export function modelToolCall(
  id: string,
  name: string,
  argumentsText: string,
  strictTools: ReadonlySet<string>,
): ModelToolCall {
  return { id, name, arguments: argumentsText, ...(strictTools.has(name) ? { nullsAreAbsent: true } : {}) };
}

/** A tool call's arguments as the JSON text the APIs carry. */
export function argumentsText(call: ModelToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}
