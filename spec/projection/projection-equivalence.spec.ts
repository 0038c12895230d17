import fc from 'fast-check';
import { DEFAULT_TOOL_OUTPUT_PROJECTION, fallbackTextTokenEstimator, TextTokenEstimator } from '../../lib/projection';
import { JsonValue, ToolOutcome, toolData, toolFailure, toolText } from '../../lib';
import { ToolOutputProjectionPolicy } from '../../lib/contract/tool-descriptor';
import { projectWithin } from '../../lib/projection/project-tool-output-for-model';
import { renderArrayInParts } from '../../lib/projection/render-array-in-parts';
import { referenceProjectWithin } from '../support/reference-projection';

/**
 * The projection must answer exactly what the frozen reference (`spec/support/reference-projection.ts`:
 * the whole message rendered as one string, every item serialized up front) answers: content, report,
 * and failure kind and message.
 */

/** One token per two UTF-16 units: a second, denser estimator. */
const perTwoUnits: TextTokenEstimator = { estimateTokens: (text) => Math.ceil(text.length / 2) };

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('漢字', 'かな', '한국어', 'β', 'ünïcödé') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧', '🇯🇵') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\t', '"', '\\', '\u0000', '\u2028') },
);
const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Arrays long enough to be rendered in parts (64 items and more), of small and large items. */
const longArray = fc.oneof(
  fc.array(value, { minLength: 60, maxLength: 400 }),
  fc.array(fc.record({ id: fc.nat(), name: text, body: text.map((t) => t.repeat(40)) }), {
    minLength: 60,
    maxLength: 300,
  }),
  fc.array(text, { minLength: 60, maxLength: 2_000 }),
);

const policy: fc.Arbitrary<ToolOutputProjectionPolicy> = fc.oneof(
  fc.record({ maxBytes: fc.integer({ min: 0, max: 300 }), maxTokens: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ maxBytes: fc.integer({ min: 256, max: 8_000 }), maxTokens: fc.integer({ min: 64, max: 3_000 }) }),
  fc.record({
    maxBytes: fc.integer({ min: 8_000, max: 2_000_000 }),
    maxTokens: fc.integer({ min: 1_000, max: 1_000_000 }),
  }),
  fc.constant(DEFAULT_TOOL_OUTPUT_PROJECTION),
);

const estimator = fc.constantFrom<TextTokenEstimator | undefined>(undefined, fallbackTextTokenEstimator, perTwoUnits);

function expectSameProjection(
  outcome: ToolOutcome,
  limits: ToolOutputProjectionPolicy,
  tokens: TextTokenEstimator | undefined,
): void {
  expect(projectWithin(outcome, limits, tokens)).toEqual(referenceProjectWithin(outcome, limits, tokens));
}

describe('projection equivalence with the reference', () => {
  it('long arrays (rendered in parts): same content, report and failures', () => {
    fc.assert(
      fc.property(longArray, policy, estimator, (data, limits, tokens) =>
        expectSameProjection(toolData(data), limits, tokens),
      ),
      { numRuns: 300 },
    );
  });

  it('any structured data, text and failures: same content, report and failures', () => {
    const outcome = fc.oneof(
      value.map((data) => toolData(data)),
      fc.array(value, { maxLength: 80 }).map((data) => toolData(data)),
      fc.array(piece, { maxLength: 600 }).map((pieces) => toolText(pieces.join(''))),
      fc
        .tuple(text, fc.option(value, { nil: undefined }))
        .map(([message, details]) => toolFailure({ code: 'tool_error', category: 'internal', message, details })),
    );
    fc.assert(
      fc.property(outcome, policy, estimator, (candidate, limits, tokens) =>
        expectSameProjection(candidate, limits, tokens),
      ),
      { numRuns: 300 },
    );
  });

  it('a large array (over the parts kept, windows rendered again): same content and report', () => {
    const data: JsonValue[] = Array.from({ length: 30_000 }, (_, id) => ({
      id,
      name: `item ${id}`,
      tags: ['alpha', id % 3 ? 'β' : 'beta'],
      note: '漢字😀'.repeat(id % 17),
    }));
    for (const limits of [
      DEFAULT_TOOL_OUTPUT_PROJECTION,
      { maxBytes: 500, maxTokens: 200 },
      { maxBytes: 1_000_000, maxTokens: 400_000 },
    ]) {
      const projected = projectWithin(toolData(data), limits, undefined);
      expect(projected).toEqual(referenceProjectWithin(toolData(data), limits, undefined));
      expect(JSON.stringify(data).length).toBeGreaterThan(1 << 21);
    }
  });

  it('an array whose first item does not fit gets the same JSON preview', () => {
    const data: JsonValue[] = [
      { big: 'x'.repeat(5_000) },
      ...Array.from({ length: 100 }, (_, id) => ({ id, note: '😀' })),
    ];
    expectSameProjection(toolData(data), { maxBytes: 1_000, maxTokens: 400 }, undefined);
  });

  it('items with toJSON see their own index, as JSON.stringify gives it', () => {
    const data = Array.from({ length: 300 }, (_, id) => ({
      id,
      toJSON: (key: string) => `at ${key}`,
    })) as unknown as JsonValue[];
    const projected = projectWithin(toolData(data), { maxBytes: 1_000_000, maxTokens: 1_000_000 }, undefined);
    expect(projected).toEqual(
      referenceProjectWithin(toolData(data), { maxBytes: 1_000_000, maxTokens: 1_000_000 }, undefined),
    );
    expect('content' in projected && projected.content).toBe(JSON.stringify(data));
  });

  it('holes, undefined, functions, symbols, nested dates and boxed values render as JSON.stringify renders them', () => {
    const odd: unknown[] = [];
    for (let id = 0; id < 400; id++)
      odd[id] = [
        undefined,
        () => id,
        Symbol('s'),
        { at: new Date(Date.UTC(2026, 0, 1, 0, id)) },
        new String(`s${id}`),
        new Number(-0),
        NaN,
        { nested: [undefined, id] },
      ][id % 8];
    odd.length = 500;
    expect(renderArrayInParts(odd, 1_000_000)).toBeDefined();
    for (const limits of [
      { maxBytes: 1_000_000, maxTokens: 1_000_000 },
      { maxBytes: 2_000, maxTokens: 1_000 },
    ]) {
      const projected = projectWithin(toolData(odd as JsonValue), limits, undefined);
      expect(projected).toEqual(referenceProjectWithin(toolData(odd as JsonValue), limits, undefined));
    }
    expect(
      projectWithin(toolData(odd as JsonValue), { maxBytes: 1_000_000, maxTokens: 1_000_000 }, undefined),
    ).toMatchObject({ content: JSON.stringify(odd) });
  });

  it('data that cannot be rendered fails with the same kind and message', () => {
    const cyclic: unknown[] = Array.from({ length: 100 }, (_, id) => ({ id }));
    (cyclic[70] as { self?: unknown }).self = cyclic;
    const withBigInt: unknown[] = Array.from({ length: 100 }, (_, id) => id);
    withBigInt[80] = 10n;
    for (const data of [cyclic, withBigInt]) {
      const projected = projectWithin(toolData(data as JsonValue), DEFAULT_TOOL_OUTPUT_PROJECTION, undefined);
      expect(projected).toEqual(
        referenceProjectWithin(toolData(data as JsonValue), DEFAULT_TOOL_OUTPUT_PROJECTION, undefined),
      );
      expect(projected).toMatchObject({ kind: 'serialization' });
    }
  });
});
