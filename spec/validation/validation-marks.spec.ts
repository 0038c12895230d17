import { carryValidated, markValidated, takeValidated } from '../../lib/validation/validated-arguments';
import { resolveJsonPointer } from '../../lib/validation/validation-issue';

describe('validated-argument marks', () => {
  const schema = { type: 'object' };

  it('are taken once, for the schema they were made against only', () => {
    const args = { city: 'Oslo' };
    markValidated(args, schema);
    expect(takeValidated(args, schema)).toBe(true);
    expect(takeValidated(args, schema)).toBe(false);
    markValidated(args, schema);
    expect(takeValidated(args, { type: 'object' })).toBe(false);
    expect(takeValidated(args, schema)).toBe(false);
  });

  it('cannot be claimed by an equal object, a proxy of a marked one, or a value that is not an object', () => {
    const args = { city: 'Oslo' };
    markValidated(args, schema);
    expect(takeValidated({ city: 'Oslo' }, schema)).toBe(false);
    expect(takeValidated(new Proxy(args, {}), schema)).toBe(false);
    expect(takeValidated('{"city":"Oslo"}', schema)).toBe(false);
    expect(takeValidated(null, schema)).toBe(false);
    expect(takeValidated(args, schema)).toBe(true);
  });

  it('go to a copy with carryValidated, the original keeping its own', () => {
    const original = { city: 'Oslo' };
    markValidated(original, schema);
    const first = { ...original };
    const second = { ...original };
    carryValidated(original, first);
    carryValidated(original, second);
    expect(takeValidated(first, schema)).toBe(true);
    expect(takeValidated(second, schema)).toBe(true);
    const unmarked = { city: 'Bergen' };
    const copy = { ...unmarked };
    carryValidated(unmarked, copy);
    expect(takeValidated(copy, schema)).toBe(false);
  });

  it('pushed out by many later marks only mean the object is validated again, never that another one passes', () => {
    const early = { n: 0 };
    markValidated(early, schema);
    const later = Array.from({ length: 16 }, (_, n) => ({ n: n + 1 }));
    for (const args of later) markValidated(args, schema);
    expect(takeValidated(early, schema)).toBe(false);
    expect(takeValidated(later[15], schema)).toBe(true);
  });
});

describe('resolveJsonPointer', () => {
  it('resolves the same pointer against different values, escapes included, and never walks prototypes', () => {
    const pointer = '/a~1b/m~0n/0';
    expect(resolveJsonPointer({ 'a/b': { 'm~n': ['x'] } }, pointer)).toBe('x');
    expect(resolveJsonPointer({ 'a/b': { 'm~n': ['y'] } }, pointer)).toBe('y');
    expect(resolveJsonPointer({ a: { b: 1 } }, pointer)).toBeUndefined();
    expect(resolveJsonPointer({ version: 3 }, '/version')).toBe(3);
    expect(resolveJsonPointer({}, '/constructor')).toBeUndefined();
    expect(resolveJsonPointer({ v: 1 }, 'v')).toBeUndefined();
    expect(resolveJsonPointer({ v: 1 }, '')).toEqual({ v: 1 });
  });

  it('resolves long and many distinct pointers alike', () => {
    const deep = 'k'.repeat(2_000);
    expect(resolveJsonPointer({ [deep]: 1 }, `/${deep}`)).toBe(1);
    for (let n = 0; n < 600; n++) expect(resolveJsonPointer({ [`k${n}`]: n }, `/k${n}`)).toBe(n);
  });
});
