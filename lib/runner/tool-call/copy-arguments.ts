import { JsonObject, JsonValue } from '../../outcome/json-value';
import { carryValidated } from '../../validation/validated-arguments';

/** Below this depth the copy recurses; deeper input (only with raised argument limits) goes to `structuredClone`. */
const RECURSION_DEPTH = 256;

/**
 * A fresh deep copy of validated arguments, given to each attempt (and each compensation), so a
 * tool that mutates its arguments changes nothing another attempt, the approval record, hooks or
 * the run's result see. The copy keeps the runner's internal mark that the original was validated,
 * so a reflected tool with the same schema does not validate it again.
 */
export function copyArguments(args: JsonObject): JsonObject {
  const copy = copyJson(args, 0) as JsonObject;
  carryValidated(args, copy);
  return copy;
}

function copyJson(value: JsonValue, depth: number): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= RECURSION_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) return value.map((item) => copyJson(item, depth + 1));
  const copy: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    const member = copyJson(value[key], depth + 1);
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy;
}
