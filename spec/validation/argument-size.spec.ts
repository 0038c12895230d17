import fc from 'fast-check';
import { ArgumentLimits, DEFAULT_ARGUMENT_LIMITS, guardJsonValue } from '../../lib/validation';
import { decodeToolArguments } from '../../lib/validation/decode-arguments';

const MIB = 1024 * 1024;

function keywords(input: unknown, limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS): string[] {
  const decoded = decodeToolArguments(input, limits);
  return decoded.ok ? [] : decoded.issues.map((issue) => issue.keyword);
}

describe('the argument size limit counts UTF-8 bytes', () => {
  const cjk = (bytes: number): string => '漢'.repeat(Math.floor(bytes / 3));

  it('refuses 9 MiB of CJK as an already-parsed object, as it does as text', () => {
    const value = { text: cjk(9 * MIB) };
    expect(keywords(JSON.stringify(value))).toEqual(['maxBytes']);
    expect(keywords(value)).toEqual(['maxBytes']);
  });

  it('refuses a key of 9 MiB of CJK, and 9 MiB spread over many strings', () => {
    expect(keywords({ [cjk(9 * MIB)]: 1 })).toEqual(['maxBytes']);
    const many = { list: Array.from({ length: 3 * 1024 }, () => cjk(3 * 1024)) };
    expect(keywords(many)).toEqual(['maxBytes']);
  });

  it('accepts 7.5 MiB of CJK as an object', () => {
    expect(keywords({ text: cjk(7.5 * MIB) })).toEqual([]);
  });

  it('counts an object as its compact JSON text, without serializing it', () => {
    const limits: ArgumentLimits = { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: 40 };
    const exactly40 = { a: 'é'.repeat(8), b: [true, null] }; // {"a":"ééé…","b":[true,null]}
    expect(Buffer.byteLength(JSON.stringify(exactly40))).toBe(40);
    expect(keywords(exactly40, limits)).toEqual([]);
    expect(keywords({ ...exactly40, a: 'é'.repeat(8) + 'x' }, limits)).toEqual(['maxBytes']);
    expect(keywords({ ...exactly40, b: [true, null, false] }, limits)).toEqual(['maxBytes']);
  });

  it('agrees with the UTF-8 length of JSON.stringify for values without numbers or escapes', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', 'é', '漢', '😀', '—', 'Z') as fc.Arbitrary<string>,
      maxLength: 12,
    });
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(text, tie('value')),
      ),
    }));
    fc.assert(
      fc.property(value, (json) => {
        const bytes = Buffer.byteLength(JSON.stringify(json));
        const wrapped = { v: json };
        const wrappedBytes = bytes + 6;
        expect(guardJsonValue(wrapped, { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: wrappedBytes }).ok).toBe(true);
        expect(guardJsonValue(wrapped, { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: wrappedBytes - 1 }).ok).toBe(false);
      }),
    );
  });

  it('never counts more than the UTF-8 length of JSON.stringify', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
        fc.pre(guardJsonValue({ v: json }, { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: Number.MAX_SAFE_INTEGER }).ok);
        const bytes = Buffer.byteLength(JSON.stringify({ v: json }));
        expect(guardJsonValue({ v: json }, { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: bytes }).ok).toBe(true);
      }),
    );
  });
});
