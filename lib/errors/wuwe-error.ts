import { hasErrorMarker } from './error-marker';

const WUWE_ERROR_MARKER = Symbol.for('wuwe.error');

/**
 * Base class of every error wuwe throws.
 *
 * Each subclass carries a stable `code` literal so callers can branch on it without parsing messages.
 * `WuweError.isInstance` works across two copies of the package (it checks a `Symbol.for` marker,
 * not the prototype chain).
 */
export abstract class WuweError<Code extends string = string> extends Error {
  /** Stable, machine-readable code of this error. */
  readonly code: Code;
  private readonly [WUWE_ERROR_MARKER] = true;

  protected constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True when `value` is a wuwe error, from this or another copy of the package. */
  static isInstance(value: unknown): value is WuweError {
    return hasErrorMarker(value, WUWE_ERROR_MARKER);
  }
}
