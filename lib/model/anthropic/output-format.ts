import { hasErrorMarker } from '../../errors/error-marker';
import { JsonSchema, SchemaNode } from '../../contract/json-schema';
import { ModelResponseFormat } from '../model-types';

/** String formats Claude's structured outputs accept. */
const SUPPORTED_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Keywords kept as they are (their subschemas rewritten); every other keyword moves into the description. */
const KEPT = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'enum',
  'const',
]);

/**
 * Rewrites a JSON Schema to the rules of Claude's structured outputs (`output_config.format`), or
 * returns `undefined` when it has no form under them.
 *
 * Every object gets `additionalProperties: false` (Claude requires it); an object whose properties are
 * free-form (a record or map: `additionalProperties` other than `false`, `patternProperties`, or no
 * `properties` at all) has no such form. `oneOf` becomes `anyOf`; `enum` and `const` stay when they
 * hold primitives. Keywords Claude does not enforce (`minimum`, `maxLength`, `pattern`, `minItems`
 * other than 0 or 1, string formats it does not know, ...) move into the node's description as
 * `{keyword: value}`, as the Anthropic SDK does: the model still reads them, and wuwe validates the
 * answer against the original schema. The input is not changed.
 */
export function toClaudeOutputSchema(schema: JsonSchema): JsonSchema | undefined {
  try {
    return rewrite(schema) as JsonSchema;
  } catch (error) {
    if (NoClaudeFormError.isInstance(error)) return undefined;
    throw error;
  }
}

/**
 * The `output_config.format` of a request's response format; `undefined` when its schema has no Claude form (see
 * `toClaudeOutputSchema`).
 */
export function toClaudeOutputFormat(format: ModelResponseFormat): ClaudeOutputFormat | undefined {
  // A run's format is one object for all its steps (and runs of the same `output`): rewritten once.
  if (claudeFormats.has(format)) return claudeFormats.get(format);
  const schema = toClaudeOutputSchema(format.schema);
  const claude: ClaudeOutputFormat | undefined =
    schema === undefined ? undefined : Object.freeze({ type: 'json_schema', schema });
  claudeFormats.set(format, claude);
  return claude;
}

/** `output_config.format` of the Messages API. */
export interface ClaudeOutputFormat {
  readonly type: 'json_schema';
  readonly schema: JsonSchema;
}

const claudeFormats = new WeakMap<ModelResponseFormat, ClaudeOutputFormat | undefined>();

const NO_CLAUDE_FORM = Symbol.for('wuwe.NoClaudeFormError');

/** Thrown while rewriting a schema that has no Claude form; {@link toClaudeOutputSchema} answers `undefined` for it. */
class NoClaudeFormError extends Error {
  readonly [NO_CLAUDE_FORM] = true;

  /** True for a `NoClaudeFormError` of any copy of the package. */
  static isInstance(value: unknown): value is NoClaudeFormError {
    return hasErrorMarker(value, NO_CLAUDE_FORM);
  }
}

function rewrite(node: unknown): unknown {
  if (!isNode(node)) return node;
  const result: SchemaNode = {};
  const moved: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'oneOf' && Array.isArray(value) && !('anyOf' in node)) result.anyOf = value.map(rewrite);
    else if (keyword === 'format' && typeof value === 'string' && SUPPORTED_FORMATS.has(value)) result.format = value;
    else if (keyword === 'minItems' && (value === 0 || value === 1)) result.minItems = value;
    else if (
      (keyword === 'enum' && Array.isArray(value) && value.every(isPrimitive)) ||
      (keyword === 'const' && isPrimitive(value))
    )
      result[keyword] = value;
    else if (keyword === 'enum' || keyword === 'const' || !KEPT.has(keyword))
      moved.push(`${keyword}: ${JSON.stringify(value)}`);
    else result[keyword] = rewriteKeyword(keyword, value);
  }
  if (isObjectSchema(node)) {
    const additional = node.additionalProperties;
    if ((additional !== undefined && additional !== false) || 'patternProperties' in node || !isNode(node.properties))
      throw new NoClaudeFormError();
    result.additionalProperties = false;
  }
  if (moved.length > 0) {
    const description =
      typeof node.description === 'string' && node.description.length > 0 ? `${node.description}\n\n` : '';
    result.description = `${description}{${moved.join(', ')}}`;
  }
  return result;
}

function rewriteKeyword(keyword: string, value: unknown): unknown {
  if (keyword === 'items') return rewrite(value);
  if ((keyword === 'anyOf' || keyword === 'allOf') && Array.isArray(value)) return value.map(rewrite);
  if ((keyword === 'properties' || keyword === '$defs' || keyword === 'definitions') && isNode(value))
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rewrite(sub)]));
  return value;
}

function isObjectSchema(node: SchemaNode): boolean {
  const type = node.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    (type === undefined && 'properties' in node)
  );
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
