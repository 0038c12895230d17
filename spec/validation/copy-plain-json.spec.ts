import fc from 'fast-check';
import { guardJsonValue } from '../../lib/validation';
import { copyPlainJson } from '../../lib/validation/guard-json-value';
import { toToolOutcome } from '../../lib/tools/to-tool-outcome';
import vm from 'node:vm';

const UNBOUNDED = { maxDepth: 8, maxBytes: Number.MAX_SAFE_INTEGER, maxElements: Number.MAX_SAFE_INTEGER };

/** True when no object or array of `copy` is one of `original` (a fresh copy all the way down). */
function sharesNothing(original: unknown, copy: unknown): boolean {
  if (typeof original !== 'object' || original === null) return true;
  if (original === copy) return false;
  const source = original as Record<string, unknown>;
  const target = copy as Record<string, unknown>;
  return Object.keys(source).every((key) => sharesNothing(source[key], target[key]));
}

describe('copyPlainJson (the one-walk copy of a plain JSON result)', () => {
  it('copies exactly what guardJsonValue passes and copies, sharing nothing with the input', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }), (value) => {
        const guarded = guardJsonValue(value, UNBOUNDED);
        const copy = copyPlainJson(value, UNBOUNDED.maxDepth);
        if (!guarded.ok) return expect(copy).toBeUndefined();
        expect(copy).toEqual(guarded.value);
        expect(sharesNothing(value, copy)).toBe(true);
      }),
    );
  });

  it('never passes a value guardJsonValue refuses', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
          withBoxedValues: true,
        }),
        (value) => {
          const copy = copyPlainJson(value, UNBOUNDED.maxDepth);
          const guarded = guardJsonValue(value, UNBOUNDED);
          if (copy !== undefined) expect(guarded).toEqual({ ok: true, value: copy });
        },
      ),
    );
  });

  it.each([
    ['a lone surrogate in a string', { text: 'a\uD800' }],
    ['a lone surrogate in a key', { ['\uDC00']: 1 }],
    ['a non-finite number', [1, Number.NaN]],
    ['Infinity', { n: Infinity }],
    ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}') as unknown],
    ['a constructor key', { constructor: 'x' }],
    ['a prototype key', { nested: { prototype: 1 } }],
    ['a class instance', { when: new Date(0) }],
    ['a Map', new Map([['a', 1]])],
    ['an undefined member', { a: undefined }],
    ['a hole in an array', new Array<number>(3).fill(1, 0, 1)],
    ['a BigInt', { n: 1n }],
    ['a function', { f: () => 1 }],
    ['undefined itself', undefined],
    ['nesting as deep as the limit', { a: { b: { c: {} } } }],
  ])('leaves %s to guardJsonValue', (_, value) => {
    expect(copyPlainJson(value, 3)).toBeUndefined();
  });

  it('passes containers up to the depth limit and objects without a prototype', () => {
    expect(copyPlainJson({ a: { b: { c: 1 } } }, 3)).toEqual({ a: { b: { c: 1 } } });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { city: 'Oslo' });
    const copy = copyPlainJson(bare, 3);
    expect(copy).toEqual({ city: 'Oslo' });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('copies own keys only, in their order, as guardJsonValue does (an enumerable member added to Object.prototype is not copied)', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    Object.defineProperty(prototype, 'inherited', {
      value: 'polluted',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const value = { b: 1, a: [2], 1: 'one' };
      const copy = copyPlainJson(value, 3) as Record<string, unknown>;
      expect(Object.keys(copy)).toEqual(['1', 'b', 'a']);
      expect(Object.prototype.hasOwnProperty.call(copy, 'inherited')).toBe(false);
      const guarded = guardJsonValue(value, UNBOUNDED);
      expect(guarded.ok && Object.keys(guarded.value as object)).toEqual(['1', 'b', 'a']);
    } finally {
      delete prototype.inherited;
    }
  });

  it('leaves an object of another realm to guardJsonValue, which passes it', () => {
    const foreign = vm.runInNewContext('({ city: "Oslo", list: [1, 2] })') as unknown;
    expect(copyPlainJson(foreign, 3)).toBeUndefined();
    expect(toToolOutcome(foreign)).toEqual({ ok: true, data: { city: 'Oslo', list: [1, 2] } });
  });

  it('throws what a getter throws, and toToolOutcome turns that into a tool_error', () => {
    const hostile = {
      get city(): string {
        throw new Error('no city today');
      },
    };
    expect(() => copyPlainJson(hostile, 3)).toThrow('no city today');
    expect(toToolOutcome(hostile)).toMatchObject({
      ok: false,
      error: { code: 'tool_error', message: expect.stringContaining('no city today') },
    });
  });

  it('gives toToolOutcome a copy: changing the returned value afterwards changes nothing in the outcome', () => {
    const returned = { city: 'Oslo', tags: ['x'], nested: { n: 1 } };
    const outcome = toToolOutcome(returned);
    returned.city = 'changed';
    returned.tags.push('y');
    returned.nested.n = 2;
    expect(outcome).toEqual({ ok: true, data: { city: 'Oslo', tags: ['x'], nested: { n: 1 } } });
  });
});
