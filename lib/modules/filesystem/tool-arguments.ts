/**
 * Reads a call's arguments defensively. The runner validates arguments against the input schema,
 * but a provider can be called directly, so every value the toolkit relies on is checked again;
 * a problem calls `fail` with a message naming the argument.
 */
export class ToolArguments {
  private constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    private readonly fail: (message: string) => Error,
  ) {}

  /** Checks `args` is a plain object with no keys besides `allowedKeys`. */
  static of(args: unknown, allowedKeys: readonly string[], fail: (message: string) => Error): ToolArguments {
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw fail('Arguments must be a JSON object.');
    const unknownKeys = Object.keys(args).filter((key) => !allowedKeys.includes(key));
    if (unknownKeys.length > 0)
      throw fail(`Unknown argument(s): ${unknownKeys.join(', ')}. Accepted: ${allowedKeys.join(', ')}.`);
    return new ToolArguments(args as Record<string, unknown>, fail);
  }

  /** The raw value, unchecked (for path arguments, which have their own checks). */
  raw(key: string): unknown {
    return this.values[key];
  }

  /** A required string. */
  string(key: string): string {
    const value = this.values[key];
    if (typeof value !== 'string') throw this.fail(`'${key}' is required and must be a string.`);
    return value;
  }

  /** An optional string. */
  optionalString(key: string): string | undefined {
    return this.values[key] === undefined ? undefined : this.string(key);
  }

  /** An optional boolean with a default. */
  boolean(key: string, fallback: boolean): boolean {
    const value = this.values[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw this.fail(`'${key}' must be a boolean.`);
    return value;
  }

  /** An optional integer within `min..max`. */
  integer(key: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
      throw this.fail(`'${key}' must be an integer from ${min} to ${max}.`);
    return value;
  }

  /** An optional value from a fixed list, with a default. */
  literal<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.values[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
      throw this.fail(`'${key}' must be one of: ${allowed.join(', ')}.`);
    return value as T;
  }

  /** An optional array of strings. */
  stringArray(key: string): readonly string[] | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
      throw this.fail(`'${key}' must be an array of strings.`);
    return value;
  }

  /** An optional object whose values are all strings. */
  stringRecord(key: string): Readonly<Record<string, string>> | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Object.values(value).every((item) => typeof item === 'string')
    )
      throw this.fail(`'${key}' must be an object of string values.`);
    return value as Record<string, string>;
  }
}
