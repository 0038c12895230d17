import { JsonSchema } from '../contract/json-schema';

/**
 * The last few argument objects the runner decoded and validated, each with the schema object it
 * validated it against. Internal: the marks live only here, keyed by object identity, so no JSON
 * input and no public option can claim one. A holder of the same compiled schema may skip
 * validating a marked object again; a mark is taken on first use, so a second use (a retry)
 * validates again.
 *
 * A few slots, not a `WeakMap`: a mark is made, copied and taken within one synchronous stretch of
 * a call (validation, then the attempt's copy handed to the provider), so a handful of slots holds
 * every mark still useful, a mark costs no hashing and no ephemeron for the garbage collector to
 * trace, and at most {@link SLOTS} argument objects are kept alive by it. A mark pushed out by later
 * calls only means the object is validated again.
 */
const SLOTS = 4;
const marked: (object | undefined)[] = new Array<object | undefined>(SLOTS).fill(undefined);
const schemas: (JsonSchema | undefined)[] = new Array<JsonSchema | undefined>(SLOTS).fill(undefined);
let next = 0;

/** Records that `args` was decoded and matched `schema` (defaults applied). */
export function markValidated(args: object, schema: JsonSchema): void {
  marked[next] = args;
  schemas[next] = schema;
  next = (next + 1) % SLOTS;
}

/** True when `args` carries a mark for exactly `schema`; the mark is removed either way. */
export function takeValidated(args: unknown, schema: JsonSchema): boolean {
  if (typeof args !== 'object' || args === null) return false;
  const slot = marked.indexOf(args);
  if (slot < 0) return false;
  const against = schemas[slot];
  marked[slot] = undefined;
  schemas[slot] = undefined;
  return against === schema;
}

/** Gives `copy` (a deep copy of `original`) the mark `original` carries, if any, leaving the original's in place. */
export function carryValidated(original: object, copy: object): void {
  const slot = marked.indexOf(original);
  if (slot >= 0) markValidated(copy, schemas[slot]!);
}
