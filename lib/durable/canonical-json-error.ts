import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

const CANONICAL_JSON_ERROR_MARKER = Symbol.for('wuwe.error.CanonicalJsonError');

/**
 * A value cannot be put in canonical JSON form (RFC 8785): a string with a lone surrogate, a number that
 * is not finite, a BigInt, a function, a symbol, or a cycle. `pointer` is the JSON Pointer of the bad part.
 */
export class CanonicalJsonError extends WuweError<'invalid_canonical_json'> {
  private readonly [CANONICAL_JSON_ERROR_MARKER] = true;

  /** True when `value` is a CanonicalJsonError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is CanonicalJsonError {
    return hasErrorMarker(value, CANONICAL_JSON_ERROR_MARKER);
  }

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
