import {
  DEFAULT_TOOL_OUTPUT_PROJECTION,
  effectiveToolOutputProjection,
  ToolOutputProjectionPolicyError,
} from '../../lib/projection';
import { WuweError } from '../../lib';

describe('effectiveToolOutputProjection', () => {
  const run = { maxBytes: 65_536, maxTokens: 10_000 };

  it('is the run policy when the descriptor sets no ceiling', () => {
    expect(effectiveToolOutputProjection(run)).toEqual(run);
    expect(effectiveToolOutputProjection(run, {})).toEqual(run);
  });

  it('tightens field by field', () => {
    expect(effectiveToolOutputProjection(run, { maxBytes: 8_192, maxTokens: 2_000 })).toEqual({
      maxBytes: 8_192,
      maxTokens: 2_000,
    });
    expect(effectiveToolOutputProjection(run, { maxBytes: 8_192 })).toEqual({ maxBytes: 8_192, maxTokens: 10_000 });
    expect(effectiveToolOutputProjection(run, { maxTokens: 500 })).toEqual({ maxBytes: 65_536, maxTokens: 500 });
  });

  it('never widens the run policy', () => {
    expect(effectiveToolOutputProjection(run, { maxBytes: 1_000_000, maxTokens: 1_000_000 })).toEqual(run);
    expect(effectiveToolOutputProjection(run, { maxBytes: 1_000_000, maxTokens: 300 })).toEqual({
      maxBytes: 65_536,
      maxTokens: 300,
    });
  });

  it('returns a frozen policy', () => {
    expect(Object.isFrozen(effectiveToolOutputProjection(DEFAULT_TOOL_OUTPUT_PROJECTION, { maxTokens: 128 }))).toBe(
      true,
    );
  });

  it('rejects ceilings that are not integers or are below the minimum', () => {
    for (const bad of [
      { maxBytes: 100 },
      { maxTokens: 10 },
      { maxBytes: Number.NaN },
      { maxTokens: 2.5 },
      { maxBytes: Infinity },
    ]) {
      const act = (): unknown => effectiveToolOutputProjection(run, bad);
      expect(act).toThrow(ToolOutputProjectionPolicyError);
      expect(act).toThrow(/modelOutputProjection: max(Bytes|Tokens) must be an integer/);
    }
    expect(() => effectiveToolOutputProjection({ maxBytes: 10, maxTokens: 10_000 })).toThrow(
      /run policy: maxBytes must be an integer >= 256, got 10/,
    );
  });

  it('throws a wuwe error with a stable code and kind', () => {
    try {
      effectiveToolOutputProjection(run, { maxBytes: 1 });
      throw new Error('expected a throw');
    } catch (error) {
      expect(WuweError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid_projection_policy', kind: 'invalid_policy' });
    }
  });
});
