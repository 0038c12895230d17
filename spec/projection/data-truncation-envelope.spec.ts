import { DEFAULT_TOOL_OUTPUT_PROJECTION, tryProjectToolOutputForModel } from '../../lib/projection';
import { JsonValue, toolData } from '../../lib';

/** An array whose items count how often they are serialized (`toJSON` runs once per serialization). */
function countedItems(count: number): { data: JsonValue; serializations: () => number } {
  let calls = 0;
  const data = Array.from({ length: count }, (_, id) => ({
    toJSON: () => {
      calls++;
      return { id, name: `item ${id}`, tags: ['alpha', 'beta'], score: id / 7 };
    },
  }));
  return { data: data as unknown as JsonValue, serializations: () => calls };
}

describe('dataTruncationEnvelope', () => {
  it('serializes only the items a candidate shows, plus one, beyond the rendering of the original', () => {
    const { data, serializations } = countedItems(20_000);
    const result = tryProjectToolOutputForModel(toolData(data), { policy: DEFAULT_TOOL_OUTPUT_PROJECTION });
    if (!result.ok) throw new Error(result.error.message);
    const shown = (JSON.parse(result.content) as { shownItems: number }).shownItems;
    // The token ceiling, not the byte ceiling, decides here: far fewer items than 64 KiB holds.
    expect(shown).toBeGreaterThan(50);
    expect(shown * 90).toBeLessThan(DEFAULT_TOOL_OUTPUT_PROJECTION.maxBytes / 2);
    expect(serializations() - 20_000).toBeLessThanOrEqual(shown + 1);
  });

  it('when the byte ceiling decides, the items up to it are serialized, plus one', () => {
    const { data, serializations } = countedItems(100);
    const result = tryProjectToolOutputForModel(toolData(data), { policy: { maxBytes: 6_000, maxTokens: 100_000 } });
    if (!result.ok) throw new Error(result.error.message);
    expect(JSON.parse(result.content)).toMatchObject({ truncated: true, totalItems: 100 });
    expect(serializations() - 100).toBeLessThanOrEqual(
      (JSON.parse(result.content) as { shownItems: number }).shownItems + 1,
    );
  });
});
