/**
 * A new plain object with the own enumerable properties of each source in order, later ones winning: what `{ ...a,
 * ...b }` makes, with the same rule for a `__proto__` key (it stays an own key and never sets the prototype).
 * `undefined` and `null` sources are skipped, as a spread skips them.
 *
 * Why not the literal: on Node 20 an object literal that spreads and then adds properties (or spreads twice) takes a
 * runtime path of about a microsecond, on the per-call path of every tool call; this takes a tenth of that (see
 * docs/architecture.md). @internal
 */
export function mergeOwn<A extends object | undefined, B extends object | undefined>(a: A, b: B): Merged<A, B>;
export function mergeOwn<A extends object | undefined, B extends object | undefined, C extends object | undefined>(
  a: A,
  b: B,
  c: C,
): Merged<Merged<A, B>, C>;
export function mergeOwn(...sources: readonly (object | undefined)[]): object {
  const merged: Record<PropertyKey, unknown> = {};
  for (const source of sources) {
    if (source === undefined || source === null) continue;
    if (!Object.hasOwn(source, '__proto__')) {
      Object.assign(merged, source);
      continue;
    }
    // Object.assign would call the prototype's `__proto__` setter: define each own property instead.
    for (const key of Reflect.ownKeys(source)) {
      const descriptor = Object.getOwnPropertyDescriptor(source, key);
      if (descriptor?.enumerable !== true) continue;
      const value: unknown = (source as Record<PropertyKey, unknown>)[key];
      Object.defineProperty(merged, key, { value, writable: true, enumerable: true, configurable: true });
    }
  }
  return merged;
}

/** The type of `{ ...A, ...B }`, member by member of a union `A` (an `undefined` source adds nothing). @internal */
export type Merged<A, B> = [B] extends [undefined]
  ? Exclude<A, undefined>
  : A extends undefined
    ? B
    : A extends unknown
      ? Omit<A, keyof B> & B
      : never;
