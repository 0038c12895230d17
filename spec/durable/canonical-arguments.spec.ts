import { createHash } from 'node:crypto';
import { canonicalArgumentsSha256, canonicalJson, CanonicalJsonError } from '../../lib/durable';

describe('canonicalJson', () => {
  it('writes RFC 8785 text: sorted keys, shortest numbers, no whitespace', () => {
    expect(canonicalJson({ b: [1, 2e21, -0, 0.1], a: 'é', c: { z: true, y: null }, '\u20ac': 1, '\r': 2 })).toBe(
      '{"\\r":2,"a":"é","b":[1,2e+21,0,0.1],"c":{"y":null,"z":true},"€":1}',
    );
  });

  it('rejects strings and keys with lone surrogates, naming where', () => {
    expect(() => canonicalJson({ to: ['ok', '\ud800'] })).toThrow(
      new CanonicalJsonError('/to/1', 'the string contains a lone surrogate'),
    );
    expect(() => canonicalJson({ ['a\udc00']: 1 })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson('\ud83d\ude00')).not.toThrow();
  });

  it('rejects values with no JSON form', () => {
    for (const bad of [NaN, Infinity, 1n, () => 1, Symbol('s')]) {
      expect(() => canonicalJson({ a: [bad] })).toThrow(CanonicalJsonError);
    }
    expect(() => canonicalJson(undefined)).toThrow(CanonicalJsonError);
    expect(canonicalJson([undefined, { a: undefined }])).toBe('[null,{}]');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(
      expect.objectContaining({ code: 'invalid_canonical_json', pointer: '/self' }),
    );
  });
});

describe('canonicalArgumentsSha256', () => {
  it('is the SHA-256 of the canonical UTF-8 text, independent of key order and spacing', () => {
    const expected = createHash('sha256').update('{"a":1,"b":[true,null,"x"]}', 'utf8').digest('hex');
    expect(canonicalArgumentsSha256({ b: [true, null, 'x'], a: 1 })).toBe(expected);
    expect(canonicalArgumentsSha256(JSON.parse('{ "a" : 1.0, "b": [true, null, "x"] }'))).toBe(expected);
    expect(canonicalArgumentsSha256({ a: 1 })).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });

  it('refuses two different ill-formed strings that would encode to the same UTF-8 bytes', () => {
    expect(Buffer.from('\ud800', 'utf8').equals(Buffer.from('\udbff', 'utf8'))).toBe(true);
    expect(() => canonicalArgumentsSha256({ note: '\ud800' })).toThrow(CanonicalJsonError);
    expect(() => canonicalArgumentsSha256({ note: '\udbff' })).toThrow(CanonicalJsonError);
  });
});
