import { JsonSchema } from '../contract/json-schema';
import { JsonObject, JsonValue } from '../outcome/json-value';

/**
 * Removes the `null`s that stand for "absent" from decoded tool arguments, following the tool's own input
 * schema: a property whose value is `null`, that its object schema does not list in `required`, and whose
 * own schema does not accept `null`, is left out. Nested objects (through `properties`, `items` and local
 * `$ref`s to `$defs`/`definitions`) are handled the same way. Everything else is kept, so validation still
 * refuses a `null` for a required property.
 *
 * Used for tool calls marked `nullsAreAbsent` (OpenAI strict function calling, where the model must send
 * every property and sends `null` for an optional one). Returns a new value; the input is not changed.
 */
export function dropAbsentNulls(value: JsonObject, schema: JsonSchema): JsonObject {
  return walk(value, schema, schema, 0) as JsonObject;
}

/** Deeper than this, values are kept as they are (the validator bounds depth on its own). */
const MAX_DEPTH = 64;

function walk(value: JsonValue, schema: unknown, root: JsonSchema, depth: number): JsonValue {
  const node = resolve(schema, root);
  if (node === undefined || depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    return isNode(node.items) ? value.map((item) => walk(item, node.items, root, depth + 1)) : value;
  }
  const properties = isNode(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (
      item === null &&
      propertySchema !== undefined &&
      !required.includes(key) &&
      !schemaAcceptsNull(propertySchema, root)
    )
      continue;
    const kept = propertySchema === undefined ? item : walk(item, propertySchema, root, depth + 1);
    // defineProperty: a `__proto__` key stays an own data property, as JSON.parse made it.
    Object.defineProperty(result, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** Follows a local `$ref` (`#/$defs/X` or `#/definitions/X`); `undefined` for anything else than a schema object. */
function resolve(schema: unknown, root: JsonSchema): JsonSchema | undefined {
  let node = schema;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string' && hops < 16; hops++) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(node.$ref);
    const defs = match === null ? undefined : root[match[1]];
    node =
      match !== null && isNode(defs)
        ? defs[decodeURIComponent(match[2]).replace(/~1/g, '/').replace(/~0/g, '~')]
        : undefined;
  }
  return isNode(node) ? node : undefined;
}

/**
 * True when `schema` may accept `null` as a value: `type` names `null`, `enum` or `const` holds it, a
 * branch of `anyOf`/`oneOf` does, or the schema is `true` or a `$ref` that does not resolve in `root`.
 */
export function schemaAcceptsNull(schema: unknown, root: JsonSchema): boolean {
  if (schema === true) return true;
  const node = resolve(schema, root);
  if (node === undefined) return true;
  if ('const' in node) return node.const === null;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  const { type } = node;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const list = node[keyword];
    if (Array.isArray(list) && list.some((branch) => schemaAcceptsNull(branch, root))) return true;
  }
  return false;
}

function isNode(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
