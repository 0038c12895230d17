import { JsonObject, JsonValue } from '../outcome/json-value';

/** Below this depth the copy recurses; deeper input (only with raised argument limits) goes to `structuredClone`. */
const RECURSION_DEPTH = 256;

/**
 * A fresh deep copy of validated arguments, given to each attempt (and each compensation), so a
 * tool that mutates its arguments changes nothing another attempt, the approval record, hooks or
 * the run's result see.
 */
export function copyArguments(args: JsonObject): JsonObject {
  return copyJson(args, 0) as JsonObject;
}

function copyJson(value: JsonValue, depth: number): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= RECURSION_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) return value.map((item) => copyJson(item, depth + 1));
  const copy: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    const member = copyJson(value[key], depth + 1);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy;
}
