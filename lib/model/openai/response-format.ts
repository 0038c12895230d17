import { JsonSchema } from '../../contract/json-schema';
import { ModelResponseFormat } from '../model-types';
import { toStrictSchema } from './strict-schema';

/**
 * A response format as both OpenAI APIs take it (Chat Completions in `json_schema`, Responses flat in `text.format`).
 */
export interface OpenAIJsonSchemaFormat {
  readonly name: string;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly strict: boolean;
}

/**
 * The request's response format under OpenAI's structured outputs: `strict: true` with the schema
 * rewritten to the strict rules (every property required, optional ones nullable: the runner reads a
 * `null` sent for one as absent), or, for a schema without a strict form (a record or map field), the
 * schema as it is with `strict: false`.
 */
export function toOpenAIJsonSchemaFormat(format: ModelResponseFormat): OpenAIJsonSchemaFormat {
  // A run's format is one object for all its steps (and runs of the same `output`): rewritten once.
  let mapped = openAIFormats.get(format);
  if (mapped === undefined) {
    mapped = Object.freeze(mapFormat(format));
    openAIFormats.set(format, mapped);
  }
  return mapped;
}

const openAIFormats = new WeakMap<ModelResponseFormat, OpenAIJsonSchemaFormat>();

function mapFormat(format: ModelResponseFormat): OpenAIJsonSchemaFormat {
  const strict = toStrictSchema(format.schema);
  return {
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    schema: strict ?? format.schema,
    strict: strict !== undefined,
  };
}

/** Chat Completions `response_format` of a request, or nothing. */
export function chatResponseFormat(format: ModelResponseFormat | undefined): { readonly response_format?: unknown } {
  return format === undefined
    ? {}
    : { response_format: { type: 'json_schema', json_schema: toOpenAIJsonSchemaFormat(format) } };
}

/** Responses API `text` of a request, or nothing. */
export function responsesTextFormat(format: ModelResponseFormat | undefined): { readonly text?: unknown } {
  return format === undefined ? {} : { text: { format: { type: 'json_schema', ...toOpenAIJsonSchemaFormat(format) } } };
}
