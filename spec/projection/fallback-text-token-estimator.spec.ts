import fc from 'fast-check';
import { FallbackTextTokenEstimator, fallbackTextTokenEstimator } from '../../lib';

describe('fallbackTextTokenEstimator', () => {
  const estimate = (text: string): number => fallbackTextTokenEstimator.estimateTokens(text);

  it('counts about four bytes per token for ASCII prose', () => {
    expect(estimate('')).toBe(0);
    expect(estimate('abc')).toBe(1);
    expect(estimate('abcd')).toBe(1);
    expect(estimate('abcde')).toBe(2);
    expect(estimate('The quick brown fox jumps over the lazy dog.'.repeat(100))).toBe(1100);
  });

  it('counts at least one token per CJK character', () => {
    expect(estimate('漢字かなカナ한글')).toBe(8);
    expect(estimate('The answer is 四十二.')).toBeGreaterThanOrEqual(3 + Math.ceil(14 / 4));
  });

  it('counts at least one token per emoji, two for one outside the Basic Multilingual Plane', () => {
    expect(estimate('😀')).toBe(2);
    expect(estimate('😀😀😀')).toBe(6);
    expect(estimate('ok 👍')).toBeGreaterThanOrEqual(1 + 2);
  });

  it('counts one token per two-byte letter and per combining mark', () => {
    expect(estimate('текст')).toBe(5);
    expect(estimate('e\u0301')).toBe(2);
  });

  it('counts a lone surrogate as one token', () => {
    expect(estimate('\ud800')).toBe(1);
  });

  it('is a class with the same results as the shared instance', () => {
    const own = new FallbackTextTokenEstimator();
    expect(own.estimateTokens('héllo 漢字 😀')).toBe(estimate('héllo 漢字 😀'));
    expect(own.estimateTokensFromLengths(Buffer.byteLength('héllo'), 'héllo'.length)).toBe(estimate('héllo'));
    expect(Object.isFrozen(fallbackTextTokenEstimator)).toBe(true);
  });

  it('never counts fewer than a quarter token per ASCII character plus one per non-ASCII code unit', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', ' ', '{', '"', '\n', 'Z'),
      fc.constantFrom('漢', 'か', '한', 'é', 'ж', '\u0301', '😀', '👍🏽', '\ud800', '\udfff'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (pieces) => {
        const text = pieces.join('');
        const ascii = text.replace(/[\u0080-\uffff]/g, '').length;
        const nonAsciiUnits = text.length - ascii;
        expect(estimate(text)).toBeGreaterThanOrEqual(Math.ceil(ascii / 4) + nonAsciiUnits);
        const wide = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Hangul}\p{Extended_Pictographic}]/gu) ?? []).length;
        expect(estimate(text)).toBeGreaterThanOrEqual(wide);
      }),
    );
  });
});
