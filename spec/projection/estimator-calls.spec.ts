import {
  DEFAULT_TOOL_OUTPUT_PROJECTION,
  fallbackTextTokenEstimator,
  TextTokenEstimator,
  tryProjectToolOutputForModel,
} from '../../lib/projection';
import { MAX_ESTIMATOR_CALLS_PER_PROJECTION } from '../../lib/projection/project-tool-output-for-model';
import { ToolOutcome, toolData, toolFailure, toolText } from '../../lib';

const MIB = 1 << 20;

/**
 * A slow estimator standing in for an exact tokenizer: it visits every character of what it is
 * given (a regex pass), and records the length of each call.
 */
class SlowCountingEstimator implements TextTokenEstimator {
  readonly lengths: number[] = [];

  estimateTokens(text: string): number {
    this.lengths.push(text.length);
    const words = text.match(/\S+/g)?.length ?? 0;
    return Math.max(words, fallbackTextTokenEstimator.estimateTokens(text));
  }
}

describe('estimator calls per projection', () => {
  const cases: Array<[string, ToolOutcome]> = [
    ['ASCII text', toolText('The quick brown fox jumps over the lazy dog. '.repeat(MIB / 45))],
    ['multi-byte text', toolText('漢字かな 😀 texte accentué. '.repeat(MIB / 24))],
    ['a JSON array', toolData(Array.from({ length: MIB / 32 }, (_, id) => ({ id, name: `item ${id}` })))],
    ['a JSON object', toolData({ log: 'line of log output\n'.repeat(MIB / 19) })],
    [
      'a failure',
      toolFailure({
        code: 'tool_error',
        message: 'stack frame\n'.repeat(MIB / 12),
        details: { frames: 'x'.repeat(MIB) },
      }),
    ],
  ];

  it.each(cases)('is bounded for 1 MiB of %s', (_name, outcome) => {
    const estimator = new SlowCountingEstimator();
    const result = tryProjectToolOutputForModel(outcome, { policy: DEFAULT_TOOL_OUTPUT_PROJECTION, estimator });
    expect(result.ok && result.report.truncated).toBe(true);
    expect(estimator.lengths.length).toBeGreaterThanOrEqual(2);
    expect(estimator.lengths.length).toBeLessThanOrEqual(MAX_ESTIMATOR_CALLS_PER_PROJECTION);
    expect(MAX_ESTIMATOR_CALLS_PER_PROJECTION).toBe(6);
    // Never on the original over the byte ceiling: only on texts that may be sent.
    for (const length of estimator.lengths) expect(length).toBeLessThanOrEqual(DEFAULT_TOOL_OUTPUT_PROJECTION.maxBytes);
  });

  it('calls the estimator once when the output fits', () => {
    const estimator = new SlowCountingEstimator();
    tryProjectToolOutputForModel(toolText('small'), { policy: DEFAULT_TOOL_OUTPUT_PROJECTION, estimator });
    expect(estimator.lengths).toEqual([5]);
  });

  it('stays bounded and within the ceilings when the estimator rates every preview too large', () => {
    let calls = 0;
    const stubborn: TextTokenEstimator = {
      estimateTokens(text) {
        calls++;
        return text.length > 400 ? 1_000_000 : 10;
      },
    };
    const result = tryProjectToolOutputForModel(toolText('y'.repeat(MIB)), {
      policy: DEFAULT_TOOL_OUTPUT_PROJECTION,
      estimator: stubborn,
    });
    expect(calls).toBeLessThanOrEqual(MAX_ESTIMATOR_CALLS_PER_PROJECTION);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.report.projectedTokens).toBeLessThanOrEqual(DEFAULT_TOOL_OUTPUT_PROJECTION.maxTokens);
    expect(result.content).toMatch(/^\[Tool output truncated for the model: the original was 1048576 bytes/);
  });
});
