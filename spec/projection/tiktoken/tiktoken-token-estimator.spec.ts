import { getEncoding } from 'js-tiktoken';
import { DEFAULT_TOOL_OUTPUT_PROJECTION, tryProjectToolOutputForModel } from '../../../lib/projection';
import { toolText } from '../../../lib';
import { TiktokenTokenEstimator } from '../../../lib/projection/tiktoken';

describe('TiktokenTokenEstimator', () => {
  const sample = 'The quick brown fox 🦊 jumps over 漢字 <|endoftext|> {"id": 42}';

  it('counts exactly as js-tiktoken does, o200k_base by default', () => {
    expect(new TiktokenTokenEstimator().estimateTokens(sample)).toBe(
      getEncoding('o200k_base').encode(sample, [], []).length,
    );
    expect(new TiktokenTokenEstimator('cl100k_base').estimateTokens(sample)).toBe(
      getEncoding('cl100k_base').encode(sample, [], []).length,
    );
    expect(new TiktokenTokenEstimator().estimateTokens('')).toBe(0);
  });

  it('is given only text within maxBytes by the projection, and keeps the token ceiling exactly', () => {
    const estimator = new TiktokenTokenEstimator();
    const seen: number[] = [];
    const counting = {
      estimateTokens: (text: string) => (seen.push(Buffer.byteLength(text)), estimator.estimateTokens(text)),
    };
    const log = Array.from(
      { length: 20_000 },
      (_, i) => `2024-05-01T10:00:${String(i % 60).padStart(2, '0')}Z INFO req=${(i * 2654435761).toString(16)} ok`,
    ).join('\n');
    const policy = { ...DEFAULT_TOOL_OUTPUT_PROJECTION, maxTokens: 2_000 };
    const result = tryProjectToolOutputForModel(toolText(log), { policy, estimator: counting });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.report.truncated).toBe(true);
    expect(getEncoding('o200k_base').encode(result.content, [], []).length).toBeLessThanOrEqual(2_000);
    for (const bytes of seen) expect(bytes).toBeLessThanOrEqual(policy.maxBytes);
  });
});
