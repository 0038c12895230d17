import fc from 'fast-check';
import { fallbackTextTokenEstimator } from '../../lib/projection';
import { estimateLargeTextTokens } from '../../lib/projection/fallback-text-token-estimator';
import { referenceEstimateLargeTextTokens, referenceEstimateTokens } from '../support/reference-token-estimator';

/**
 * The fallback estimator is tuned for speed; it must answer exactly what the reference (a frozen
 * copy of its straightforward version) answers, for every string.
 */
const estimate = (text: string): number => fallbackTextTokenEstimator.estimateTokens(text);

const sameAsReference = (text: string): void => {
  expect(estimate(text)).toBe(referenceEstimateTokens(text));
  expect(estimateLargeTextTokens(text)).toBe(referenceEstimateLargeTextTokens(text));
};

const chars = (units: string): string[] => [...units];
/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
/**
 * Units weighted to what the estimator tells apart: letters, hex, base64, digits, white space, punctuation, non-ASCII,
 * surrogates.
 */
const weightedUnit = fc.oneof(
  { arbitrary: fc.constantFrom(...chars('abcdefghijklmnopqrstuvwxyz')), weight: 8 },
  { arbitrary: fc.constantFrom(...chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ')), weight: 3 },
  { arbitrary: fc.constantFrom(...chars('aeiouAEIOU')), weight: 3 },
  { arbitrary: fc.constantFrom(...chars('abcdefABCDEF0123456789')), weight: 3 },
  { arbitrary: fc.constantFrom(...chars('0123456789')), weight: 4 },
  { arbitrary: fc.constantFrom(' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f'), weight: 5 },
  { arbitrary: fc.constantFrom(...chars('+/=-_{}[]":,.;!?()<>@#$%^&*~`\'\\|\u007f\u0000\u001f')), weight: 4 },
  {
    arbitrary: fc.constantFrom('é', 'ß', '\u0080', '\u07ff', '\u0800', '漢', 'か', '\uffff', '\ud7ff', '\ue000'),
    weight: 2,
  },
  { arbitrary: fc.constantFrom('😀', '👍🏽', '\ud800\udc00', '\udbff\udfff'), weight: 1 },
  { arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'), weight: 1 },
);
const weightedText = fc.array(weightedUnit, { maxLength: 120 }).map((units) => units.join(''));
/** Words and tokens the letter rules score differently: camel case, hex, base64, vowel-less clusters. */
const piece = fc.oneof(
  weightedText,
  fc.constantFrom(
    'getUserById',
    'parseHTTPResponseBody',
    'aB',
    'aBcD',
    'aBcDeF',
    'aBcDeFgH',
    'deadbeef',
    'ABCDEF',
    'strengths',
    'queue',
    'rhythm',
  ),
  fc.constantFrom(
    'aGVsbG8gd29ybGQ=',
    'dGVzdA==',
    'x+y',
    'a/b',
    'key=value',
    'abc123def',
    '0xff',
    '2026-12-02T01:16:34Z',
  ),
  fc.string({
    unit: fc.constantFrom(...chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=')),
    maxLength: 80,
  }),
  fc.string({ unit: fc.constantFrom(' ', '\n', '\t'), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...chars('{}[]":,')), maxLength: 40 }),
);
const mixedText = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

describe('fallback estimator equivalence with the reference', () => {
  it('agrees on examples at every rule boundary', () => {
    const examples = [
      '',
      ' ',
      'a',
      'A',
      '0',
      '\ud800',
      '\udc00',
      '\ud800\udc00',
      '\udc00\ud800',
      'a\ud800',
      '\ud800a',
      'é',
      '\u07ff\u0800',
      '{"city":"Tokyo","degrees":22}',
      'aBcDeF',
      'aBcDeFgH',
      'abcdef',
      'abcdefg',
      'ABC',
      'abc1',
      '1abc',
      '+abc',
      'abc=',
      'a/b',
      'xyz+',
      'strengths',
      'rhythms',
      'a a',
      'a  a',
      'a 1',
      'a  1',
      'a é',
      'a\t.',
      '\t\t\t\t\t\t\t\t\t',
      ' '.repeat(8),
      ' '.repeat(17) + '1',
      '1',
      '12',
      '123',
      '1234',
      '1234567',
      'x'.repeat(100),
      'xY'.repeat(50),
      'a'.repeat(40000),
      'ab1 '.repeat(10000),
    ];
    for (const text of examples) sameAsReference(text);
  });

  it('agrees on arbitrary UTF-16 code units, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: codeUnit, maxLength: 200 }), (text) => sameAsReference(text)),
      { numRuns: 3000 },
    );
  });

  it('agrees on arbitrary full-unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => sameAsReference(text)),
      { numRuns: 2000 },
    );
  });

  it('agrees on text weighted to letters, digits, white space, punctuation, hex, base64 and surrogates', () => {
    fc.assert(
      fc.property(weightedText, (text) => sameAsReference(text)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(mixedText, (text) => sameAsReference(text)),
      { numRuns: 3000 },
    );
  });

  it('agrees on JSON texts of arbitrary values, compact and pretty', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue({ stringUnit: 'binary' }), (ascii, unicode) => {
        for (const value of [ascii, unicode]) {
          sameAsReference(JSON.stringify(value));
          sameAsReference(JSON.stringify(value, null, 2));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees on texts over 32 KiB, where the large-text estimate samples windows', () => {
    const longText = fc
      .tuple(fc.array(mixedText, { minLength: 1, maxLength: 30 }), fc.integer({ min: 32 * 1024, max: 160 * 1024 }))
      .map(([parts, length]) => {
        let text = '';
        for (let index = 0; text.length < length; index++)
          text += parts[index % parts.length] + (index % 7 === 0 ? '\ud83d' : ' ');
        return text.slice(0, length);
      });
    fc.assert(
      fc.property(longText, (text) => sameAsReference(text)),
      { numRuns: 150 },
    );
  });

  it('agrees on texts of 3 UTF-8 bytes per code unit, counted in one part and in parts of 16 Ki code units', () => {
    for (const unit of ['漢', '\ud800', '\udc00', '\uffff', '😀', 'é', '漢a', '1\ud800', ' 😀'])
      for (const length of [100, 16_383, 16_384, 16_385, 40_000, 200_000]) {
        sameAsReference(unit.repeat(length).slice(0, length));
        // A run longer than a part, then that text: one part of its own, larger than the scratch buffer.
        sameAsReference('a'.repeat(30_000) + unit.repeat(length).slice(0, length));
      }
  });

  it('agrees on texts over 16 Ki code units whatever two units meet where they are cut in parts', () => {
    const units = [
      'a',
      'B',
      'f',
      '1',
      ' ',
      '\n',
      '\t',
      '+',
      '/',
      '=',
      '.',
      '\u0000',
      'é',
      '漢',
      '\ud83d',
      '\ude00',
      '\ud800',
    ];
    for (const last of units)
      for (const next of units)
        for (const filler of ['w', ' ', '{'])
          for (const at of [16_384, 16_383, 8_193, 8_192, 8_191])
            sameAsReference(filler.repeat(at - 1) + last + next + filler.repeat(20_000));
  });

  it('agrees on texts over 16 Ki code units with runs of every kind longer than a part', () => {
    const run = fc
      .tuple(
        fc.constantFrom('a', 'Q', 'abcdef', 'aB', '7', ' ', '\n', '\t', '😀', '\ud800', '+', ','),
        fc.integer({ min: 1, max: 20_000 }),
      )
      .map(([unit, count]) => unit.repeat(count));
    const longText = fc
      .tuple(
        fc.array(fc.oneof(mixedText, run), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 16_385, max: 70_000 }),
      )
      .map(([parts, length]) => {
        let text = '';
        for (let index = 0; text.length < length; index++)
          text += parts[index % parts.length] + (index % 5 === 0 ? ',' : '');
        return text.slice(0, length);
      });
    fc.assert(
      fc.property(longText, (text) => sameAsReference(text)),
      { numRuns: 200 },
    );
  });

  it('agrees on texts at the length where sampling starts', () => {
    for (const length of [32 * 1024, 32 * 1024 + 1, 32 * 1024 + 2, 32 * 1024 + 31, 40_000, 65_536, 1 << 20]) {
      const units = 'getUserById 0xdeadbeef aGVsbG8= 漢字 😀 {"k":[1,2]}\n\t\ud800';
      sameAsReference(units.repeat(Math.ceil(length / units.length)).slice(0, length));
    }
  });
});
