import fc from 'fast-check';
import { getEncoding } from 'js-tiktoken';
import { FallbackTextTokenEstimator, fallbackTextTokenEstimator } from '../../lib/projection';
import { TOOL_OUTPUT_CLASSES } from '../support/tool-output-corpus';

const o200k = getEncoding('o200k_base');
const cl100k = getEncoding('cl100k_base');
const estimate = (text: string): number => fallbackTextTokenEstimator.estimateTokens(text);

describe('fallbackTextTokenEstimator', () => {
  it.each(Object.entries(TOOL_OUTPUT_CLASSES))(
    'is an upper bound of o200k_base and cl100k_base on %s',
    (_name, texts) => {
      fc.assert(
        fc.property(texts, (text) => {
          expect(estimate(text)).toBeGreaterThanOrEqual(o200k.encode(text).length);
          expect(estimate(text)).toBeGreaterThanOrEqual(cl100k.encode(text).length);
        }),
        { numRuns: 300 },
      );
    },
  );

  it.each(['English prose', 'compact JSON', 'pretty JSON'])(
    'stays within 2.5x of o200k_base on %s (each text of 100 tokens or more within 3x)',
    (name) => {
      const samples = fc.sample(TOOL_OUTPUT_CLASSES[name], { numRuns: 300 });
      let estimated = 0;
      let real = 0;
      for (const text of samples) {
        const tokens = o200k.encode(text).length;
        estimated += estimate(text);
        real += tokens;
        // Short texts pay the fixed two tokens of slack; from 100 tokens on, a single text may be denser
        // in tokens than the class on average (a generated object of many tiny keys), but never past 3x.
        if (tokens >= 100) expect(estimate(text) / tokens).toBeLessThanOrEqual(3);
      }
      expect(estimated / real).toBeLessThanOrEqual(2.5);
    },
  );

  it('is an upper bound on texts mixing every class', () => {
    const mixed = fc
      .array(fc.oneof(...Object.values(TOOL_OUTPUT_CLASSES)), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.join('\n'));
    fc.assert(
      fc.property(mixed, (text) => {
        expect(estimate(text)).toBeGreaterThanOrEqual(Math.max(o200k.encode(text).length, cl100k.encode(text).length));
      }),
      { numRuns: 100 },
    );
  });

  it('counts nothing for empty text and at least one token per UTF-8 byte outside ASCII', () => {
    expect(estimate('')).toBe(0);
    expect(estimate('漢字かな')).toBeGreaterThanOrEqual(Buffer.byteLength('漢字かな'));
    expect(estimate('😀👍🏽')).toBeGreaterThanOrEqual(Buffer.byteLength('😀👍🏽'));
    expect(estimate('\ud800')).toBeGreaterThanOrEqual(1);
  });

  it('is a class with the same results as the shared instance', () => {
    const own = new FallbackTextTokenEstimator();
    expect(own.estimateTokens('héllo 漢字 😀')).toBe(estimate('héllo 漢字 😀'));
    expect(Object.isFrozen(fallbackTextTokenEstimator)).toBe(true);
  });
});
