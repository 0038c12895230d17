import { mergeOwn } from '../../lib/outcome/merge-own';

describe('mergeOwn makes what an object spread makes', () => {
  it('copies own enumerable properties in order, later sources winning, and skips undefined sources', () => {
    const merged = mergeOwn({ a: 1, b: 2 }, undefined, { b: 3, c: undefined });
    expect(merged).toEqual({ a: 1, b: 3, c: undefined });
    expect(Object.keys(merged)).toEqual(['a', 'b', 'c']);
    expect(mergeOwn(undefined, { x: 1 })).toEqual({ x: 1 });
  });

  it('keeps a __proto__ key an own key and never sets the prototype, as a spread does', () => {
    const hostile = JSON.parse('{"__proto__": {"store": "injected"}, "runId": "r"}') as Record<string, unknown>;
    const merged = mergeOwn({ maxSteps: 3 }, hostile) as Record<string, unknown>;
    const spread = { ...{ maxSteps: 3 }, ...hostile };
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(spread)).toBe(Object.prototype);
    expect((merged as { store?: unknown }).store).toBeUndefined();
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(Object.keys(merged)).toEqual(Object.keys(spread));
    expect(JSON.stringify(merged)).toBe(JSON.stringify(spread));
  });

  it('copies enumerable symbols, skips non-enumerable properties and the source prototype', () => {
    const tag = Symbol('tag');
    const source = Object.create({ inherited: true }) as Record<PropertyKey, unknown>;
    source.own = 1;
    source[tag] = 'symbol';
    Object.defineProperty(source, 'hidden', { value: 2, enumerable: false });
    const merged = mergeOwn(source, { extra: 3 }) as Record<PropertyKey, unknown>;
    expect(merged).toEqual({ own: 1, extra: 3, [tag]: 'symbol' });
    expect(merged[tag]).toBe('symbol');
    expect('inherited' in merged).toBe(false);
    expect(Object.hasOwn(merged, 'hidden')).toBe(false);
  });

  it('reads getters once and copies their values, as a spread does', () => {
    let reads = 0;
    const source = {
      get value(): number {
        reads++;
        return 7;
      },
    };
    const merged = mergeOwn(source, {});
    expect(Object.getOwnPropertyDescriptor(merged, 'value')).toMatchObject({ value: 7, writable: true });
    expect(reads).toBe(1);
  });
});
