import fc from 'fast-check';
import { JsonValue } from '../../lib';
import { ArrayPartsLimits, renderArrayInParts } from '../../lib/projection/render-array-in-parts';
import { referenceEstimateLargeTextTokens } from '../support/reference-token-estimator';

/** Tiny parts, so that arrays of a few items are cut into many parts and most of them dropped. */
const tiny: ArrayPartsLimits = { minItems: 1, partUnits: 16, keepUnits: 64 };

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('漢字', 'β', 'ünïcödé', '😀', '👨‍👩‍👧') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '"', '\\', '\u0000') },
);
const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
const item: fc.Arbitrary<JsonValue> = fc.oneof(
  text,
  fc.integer(),
  fc.constant(null),
  fc.record({ id: fc.nat(), name: text, tags: fc.array(text, { maxLength: 3 }) }),
  fc.array(fc.oneof(text, fc.double({ noNaN: true })), { maxLength: 3 }),
);

/** What the parts rendering must match: the whole string, as the projection rendered it before. */
function expectSameAsWhole(data: JsonValue[], maxBytes: number, limits: ArrayPartsLimits): void {
  const whole = JSON.stringify(data);
  const bytes = Buffer.byteLength(whole, 'utf8');
  const parted = renderArrayInParts(data, maxBytes, limits);
  expect(parted).toBeDefined();
  expect(parted?.length).toBe(whole.length);
  expect(parted?.bytes).toBe(bytes);
  expect(parted?.head()).toBe(whole.slice(0, maxBytes + 1));
  expect(parted?.text).toBe(bytes <= maxBytes ? whole : undefined);
  expect(parted?.sampledTokens).toBe(bytes <= maxBytes ? 0 : referenceEstimateLargeTextTokens(whole));
}

describe('renderArrayInParts', () => {
  it('has the length, bytes, text, head and sampled tokens of the whole JSON text (tiny parts, most dropped)', () => {
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 0, max: 3_000 }),
        (data, maxBytes) => expectSameAsWhole(data, maxBytes, tiny),
      ),
      { numRuns: 400 },
    );
  });

  it('samples the windows of a text over 32 Ki code units from parts rendered again', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat(), body: text.map((t) => t.repeat(30)) }), { minLength: 200, maxLength: 400 }),
        fc.integer({ min: 0, max: 2_000 }),
        (data, maxBytes) => {
          fc.pre(JSON.stringify(data).length > 32 * 1024);
          expectSameAsWhole(data, maxBytes, { minItems: 1, partUnits: 512, keepUnits: 4_096 });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('with the default limits, matches on a 3 MiB array of multi-byte items', () => {
    const data: JsonValue[] = Array.from({ length: 40_000 }, (_, id) => ({
      id,
      name: `item ${id}`,
      note: 'β漢字😀'.repeat(id % 9),
    }));
    expectSameAsWhole(data, 65_536, { minItems: 64, partUnits: 8_192, keepUnits: 1 << 21 });
  });

  it('leaves to the whole rendering what a part could render differently', () => {
    const indexed = Array.from({ length: 100 }, () => ({ toJSON: (key: string) => key })) as unknown as JsonValue[];
    expect(renderArrayInParts(indexed, 10, tiny)).toBeUndefined();
    const withToJson = Object.assign(
      Array.from({ length: 100 }, (_, id) => id),
      { toJSON: () => 'whole' },
    );
    expect(renderArrayInParts(withToJson, 10, tiny)).toBeUndefined();
    expect(
      renderArrayInParts(
        new Proxy(
          Array.from({ length: 100 }, (_, id) => id),
          {},
        ),
        10,
        tiny,
      ),
    ).toBeUndefined();
    expect(renderArrayInParts([1, 2, 3], 10, { ...tiny, minItems: 4 })).toBeUndefined();
  });

  it('gives up when a part renders differently the second time (a getter that changes its answer)', () => {
    let reads = 0;
    const data = Array.from({ length: 400 }, (_, id) => ({
      id,
      get changing(): string {
        return 'x'.repeat(reads++ % 3);
      },
    })) as unknown as JsonValue[];
    expect(renderArrayInParts(data, 100, tiny)).toBeUndefined();
  });

  it('throws what JSON.stringify throws', () => {
    const cyclic: unknown[] = [1, 2, 3];
    cyclic.push({ back: cyclic });
    expect(() => renderArrayInParts(cyclic, 10, tiny)).toThrow(TypeError);
  });
});
