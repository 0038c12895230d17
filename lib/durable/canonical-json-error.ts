import { WuweError } from '../errors/wuwe-error';

/**
 * A value cannot be put in canonical JSON form (RFC 8785): a string with a lone surrogate, a number that
 * is not finite, a BigInt, a function, a symbol, or a cycle. `pointer` is the JSON Pointer of the bad part.
 */
export class CanonicalJsonError extends WuweError<'invalid_canonical_json'> {
  /** JSON Pointer of the offending value (`''` for the root). */
  readonly pointer: string;
  /** Why the value was refused. */
  readonly reason: string;

  constructor(pointer: string, reason: string) {
    super('invalid_canonical_json', `Cannot canonicalize the value at '${pointer}': ${reason}`);
    this.pointer = pointer;
    this.reason = reason;
  }
}
