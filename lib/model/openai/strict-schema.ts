import { hasErrorMarker } from '../../errors/error-marker';
import { JsonSchema, SchemaNode } from '../../contract/json-schema';
import { schemaAcceptsNull } from '../../validation/absent-nulls';

/** Keywords whose value is one subschema. */
const SUBSCHEMA_KEYWORDS = ['items', 'not', 'contains'] as const;
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = ['$defs', 'definitions'] as const;

/**
 * Rewrites a tool's input schema to OpenAI's strict function-calling rules, or returns `undefined` when
 * the schema cannot be expressed under them.
 *
 * Every object schema (the root, nested objects, array items, `$defs` entries, branches of `anyOf`)
 * lists every one of its properties in `required` and gets `additionalProperties: false`; a property
 * that was optional becomes nullable (`type: [T, 'null']`, `null` added to an `enum`, or
 * `anyOf: [schema, { type: 'null' }]` for a `$ref` or a schema without a `type`), unless it already
 * accepts `null`. The model then always sends every property, `null` for one it leaves out.
 *
 * An object whose properties are free-form (no `properties`, or `additionalProperties` other than
 * `false`, as for a record or map field) has no strict form: the result is `undefined` and the tool
 * is sent non-strict. The input schema is not changed.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema | undefined {
  try {
    return rewrite(schema, schema) as JsonSchema;
  } catch (error) {
    if (NotStrictError.isInstance(error)) return undefined;
    throw error;
  }
}

const NOT_STRICT = Symbol.for('wuwe.NotStrictError');

/** Thrown while rewriting a schema that has no strict form; the caller answers `undefined` for it. */
class NotStrictError extends Error {
  readonly [NOT_STRICT] = true;

  /** True for a `NotStrictError` of any copy of the package. */
  static isInstance(value: unknown): value is NotStrictError {
    return hasErrorMarker(value, NOT_STRICT);
  }
}

function rewrite(node: unknown, root: JsonSchema): unknown {
  if (!isNode(node)) return node;
  const result: SchemaNode = { ...node };
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    if (keyword in node) result[keyword] = rewrite(node[keyword], root);
  }
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
    const list = node[keyword];
    if (Array.isArray(list)) result[keyword] = list.map((sub) => rewrite(sub, root));
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (isNode(map))
      result[keyword] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, rewrite(sub, root)]));
  }
  if (isObjectSchema(node)) Object.assign(result, strictObject(node, root));
  return result;
}

/** `properties`, `required` and `additionalProperties` of an object schema under strict rules. */
function strictObject(node: SchemaNode, root: JsonSchema): SchemaNode {
  const properties = node.properties ?? {};
  const additional = node.additionalProperties;
  if (!isNode(properties) || (additional !== undefined && additional !== false)) throw new NotStrictError();
  if (node.properties === undefined && additional === undefined) throw new NotStrictError();
  if ('patternProperties' in node) throw new NotStrictError();
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const strictProperties = Object.fromEntries(
    Object.entries(properties).map(([name, sub]) => {
      const strict = rewrite(sub, root);
      return [name, required.has(name) ? strict : nullable(strict, root)];
    }),
  );
  return { properties: strictProperties, required: Object.keys(properties), additionalProperties: false };
}

function isObjectSchema(node: SchemaNode): boolean {
  const type = node.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    (type === undefined && 'properties' in node)
  );
}

/** `schema` made to accept `null` too (unchanged when it already does). */
function nullable(schema: unknown, root: JsonSchema): unknown {
  if (!isNode(schema) || schemaAcceptsNull(schema, root)) return schema;
  const { type } = schema;
  const hasSimpleType = typeof type === 'string' || Array.isArray(type);
  if (
    !hasSimpleType ||
    '$ref' in schema ||
    'anyOf' in schema ||
    'oneOf' in schema ||
    'allOf' in schema ||
    'const' in schema
  ) {
    return { anyOf: [schema, { type: 'null' }] };
  }
  const result: SchemaNode = {
    ...schema,
    type: Array.isArray(type) ? [...(type as unknown[]), 'null'] : [type, 'null'],
  };
  if (Array.isArray(schema.enum)) result.enum = [...(schema.enum as unknown[]), null];
  return result;
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
