import { JsonSchema } from '../contract/json-schema';

/**
 * Argument objects the runner decoded and validated, each with the schema object it validated it
 * against. Internal: the mark lives only here, keyed by object identity, so no JSON input and no
 * public option can claim it. A holder of the same compiled schema may skip validating the object
 * again; the mark is taken on first use, so a second use (a retry) validates again.
 */
const validated = new WeakMap<object, JsonSchema>();

/** Records that `args` was decoded and matched `schema` (defaults applied). */
export function markValidated(args: object, schema: JsonSchema): void {
  validated.set(args, schema);
}

/** True when `args` carries a mark for exactly `schema`; the mark is removed either way. */
export function takeValidated(args: unknown, schema: JsonSchema): boolean {
  if (typeof args !== 'object' || args === null) return false;
  const against = validated.get(args);
  if (against === undefined) return false;
  validated.delete(args);
  return against === schema;
}

/** Gives `copy` (a deep copy of `original`) the mark `original` carries, if any, leaving the original's in place. */
export function carryValidated(original: object, copy: object): void {
  const against = validated.get(original);
  if (against !== undefined) validated.set(copy, against);
}
