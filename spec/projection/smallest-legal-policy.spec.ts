import fc from 'fast-check';
import {
  checkToolOutputProjectionPolicy,
  fallbackTextTokenEstimator,
  ToolOutputProjectionPolicyError,
  tryProjectToolOutputForModel,
  DEFAULT_TOOL_IMAGE_POLICY,
  projectToolImages,
} from '../../lib/projection';
import {
  JsonValue,
  STANDARD_TOOL_ERROR_CODES,
  TOOL_ERROR_CATEGORIES,
  ToolOutcome,
  toolData,
  toolFailure,
  toolText,
} from '../../lib';
import { MIN_PROJECTION_BYTES, MIN_PROJECTION_TOKENS } from '../../lib/contract/check-descriptor';
import { PNG_1X1 } from '../support/tiny-images';

/** The smallest policy the validation accepts: what the README calls legal. */
const SMALLEST = Object.freeze({ maxBytes: MIN_PROJECTION_BYTES, maxTokens: MIN_PROJECTION_TOKENS });

const scalar = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(5_000)),
  fc.constant('漢字😀'.repeat(400)),
);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 12 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', '')),
      tie('value'),
      { maxKeys: 8 },
    ),
  ),
})).value;

/**
 * Data of every shape, biased to what is too large to send whole: long arrays (small or huge items), wide or deep
 * objects, long strings.
 */
const data: fc.Arbitrary<JsonValue> = fc.oneof(
  json,
  fc.array(json, { minLength: 20, maxLength: 200 }),
  fc.array(fc.integer(), { minLength: 100, maxLength: 2_000 }),
  fc.array(fc.constant('y'.repeat(3_000)), { minLength: 1, maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 30 }), json, { minKeys: 20, maxKeys: 60 }),
  fc.nat({ max: 200 }).map((depth) => {
    let value: JsonValue = 'leaf';
    for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { nested: value };
    return value;
  }),
  fc.string({ unit: 'grapheme', minLength: 300, maxLength: 3_000 }),
);

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 3_000 }),
  fc.string({ unit: 'binary', maxLength: 3_000 }),
  fc.constant('\ud800'.repeat(500)),
  fc.constant('z'.repeat(20_000)),
);

const images = fc.option(fc.constant([{ mediaType: 'image/png' as const, data: PNG_1X1 }]), { nil: undefined });

const failure = fc
  .record({
    code: fc.constantFrom(...(Object.keys(STANDARD_TOOL_ERROR_CODES) as (keyof typeof STANDARD_TOOL_ERROR_CODES)[])),
    category: fc.option(fc.constantFrom(...TOOL_ERROR_CATEGORIES), { nil: undefined }),
    retryable: fc.option(fc.boolean(), { nil: undefined }),
    message: text,
    details: fc.option(data, { nil: undefined }),
  })
  .map((fields) => toolFailure(fields));

const outcome: fc.Arbitrary<ToolOutcome> = fc.oneof(
  fc
    .tuple(text, images)
    .map(([value, attached]) => toolText(value, attached === undefined ? {} : { images: attached })),
  fc
    .tuple(data, images)
    .map(([value, attached]) => toolData(value, attached === undefined ? {} : { images: attached })),
  failure,
);

describe('the smallest legal projection policy', () => {
  it('passes the configuration check under the fallback estimator (the default one and the shared instance)', () => {
    expect(() => checkToolOutputProjectionPolicy(SMALLEST)).not.toThrow();
    expect(() => checkToolOutputProjectionPolicy(SMALLEST, fallbackTextTokenEstimator)).not.toThrow();
  });

  it('projects every kind of outcome (text, data of every shape, failures of every standard code, with images) under the fallback estimator', () => {
    fc.assert(
      fc.property(outcome, (candidate) => {
        const result = tryProjectToolOutputForModel(candidate, { policy: SMALLEST });
        if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
        expect(Buffer.byteLength(result.content, 'utf8')).toBeLessThanOrEqual(SMALLEST.maxBytes);
        expect(fallbackTextTokenEstimator.estimateTokens(result.content)).toBeLessThanOrEqual(SMALLEST.maxTokens);
        if (candidate.images !== undefined)
          expect(projectToolImages(candidate, DEFAULT_TOOL_IMAGE_POLICY)?.report.sent).toBe(1);
      }),
      { numRuns: 400 },
    );
  });

  it('projects a failure of every standard code and category with oversized message and details', () => {
    for (const code of Object.keys(STANDARD_TOOL_ERROR_CODES))
      for (const category of TOOL_ERROR_CATEGORIES) {
        const result = tryProjectToolOutputForModel(
          toolFailure({
            code,
            category,
            retryable: true,
            message: 'm'.repeat(10_000),
            details: { rows: Array.from({ length: 500 }, (_, id) => ({ id })) },
          }),
          { policy: SMALLEST },
        );
        expect(result.ok ? 'projected' : `${code}/${category}: ${result.error.message}`).toBe('projected');
      }
  });

  it('anything smaller is refused by the check (invalid_policy)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({
            maxBytes: fc.integer({ min: -1_000, max: MIN_PROJECTION_BYTES - 1 }),
            maxTokens: fc.integer({ min: MIN_PROJECTION_TOKENS, max: 100_000 }),
          }),
          fc.record({
            maxBytes: fc.integer({ min: MIN_PROJECTION_BYTES, max: 1_000_000 }),
            maxTokens: fc.integer({ min: -1_000, max: MIN_PROJECTION_TOKENS - 1 }),
          }),
        ),
        (policy) => {
          let caught: unknown;
          try {
            checkToolOutputProjectionPolicy(policy);
          } catch (error) {
            caught = error;
          }
          expect(ToolOutputProjectionPolicyError.isInstance(caught)).toBe(true);
          expect(caught).toMatchObject({ kind: 'invalid_policy' });
        },
      ),
    );
  });

  it('every policy at or above the minimum passes the check under the fallback estimator', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_PROJECTION_BYTES, max: 1 << 30 }),
        fc.integer({ min: MIN_PROJECTION_TOKENS, max: 1 << 30 }),
        (maxBytes, maxTokens) => {
          checkToolOutputProjectionPolicy({ maxBytes, maxTokens });
        },
      ),
    );
  });
});
