import {
  fallbackTextTokenEstimator,
  projectToolOutputForModel,
  TextTokenEstimator,
  ToolOutputProjectionReport,
} from '../../lib/projection';
import { LlmAgentRunner, MemoryRunStore, ScriptedModelClient, toolData, toolFailure } from '../../lib';
import { renderToolMessage } from '../../lib/tools';
import { ToolOutputProjectionPolicy } from '../../lib/contract';
import { FunctionProvider } from './support';

const policy: ToolOutputProjectionPolicy = { maxBytes: 2_048, maxTokens: 600 };

/** Tool results that fit and that do not, under either ceiling or both. */
const OUTPUTS: ReadonlyArray<readonly [string, () => unknown]> = [
  ['empty text', () => ''],
  ['short text', () => 'Tokyo is 22 degrees.'],
  ['multi-byte text', () => '晴れ, 22 °C 😀 '.repeat(20)],
  ['structured data', () => ({ city: 'Tokyo', degrees: 22, tags: ['warm', '晴れ'] })],
  ['a failure', () => toolFailure({ code: 'not_found', message: 'no such city', details: { city: 'Atlantis' } })],
  ['text over the byte ceiling', () => 'The quick brown fox. '.repeat(500)],
  ['text over the token ceiling only', () => 'xYxY '.repeat(300)],
  ['data over both ceilings', () => toolData(Array.from({ length: 400 }, (_, id) => ({ id, hash: `a9f3${id}` })))],
];

/** The report as computed independently: exact bytes and the estimator's count of the original and of the content. */
function expectedReport(original: string, content: string, estimator: TextTokenEstimator): Record<string, unknown> {
  const originalBytes = Buffer.byteLength(original);
  const projectedBytes = Buffer.byteLength(content);
  const truncated = content !== original;
  const projectedTokens = Math.ceil(estimator.estimateTokens(content));
  const originalTokens =
    truncated && originalBytes > policy.maxBytes ? undefined : Math.ceil(estimator.estimateTokens(original));
  return {
    truncated,
    originalBytes,
    // An original over maxBytes is counted from samples (see estimateLargeTextTokens).
    originalTokens: originalTokens ?? expect.any(Number),
    projectedBytes,
    projectedTokens,
    maxBytes: policy.maxBytes,
    maxTokens: policy.maxTokens,
    trigger: truncated ? expect.stringMatching(/^(bytes|tokens|both)$/) : null,
  };
}

describe('ToolCallResult.projection', () => {
  it.each([
    ['the fallback estimator', undefined],
    ['an injected estimator', { estimateTokens: (text: string) => text.length / 2 }],
  ])('is the same plain, frozen report everywhere it is read, with %s', async (_name, estimator) => {
    const provider = new FunctionProvider();
    const names = OUTPUTS.map(([name]) => name.replace(/\W+/g, '_'));
    OUTPUTS.forEach(([, output], index) => provider.add(names[index], output));
    const observed: ToolOutputProjectionReport[] = [];
    const store = new MemoryRunStore();
    const model = new ScriptedModelClient([
      { toolCalls: names.map((name, index) => ({ id: `c${index}`, name, arguments: '{}' })) },
      { text: 'done' },
    ]);
    const run = await new LlmAgentRunner(model, provider).complete('go', {
      runId: 'r',
      store,
      toolOutputProjection: policy,
      contextTokenEstimator: estimator,
      onToolOutputProjection: (report) => void observed.push(report),
    });
    const record = (await store.loadRun('r'))!;
    expect(run.toolCalls).toHaveLength(OUTPUTS.length);
    for (const result of run.toolCalls) {
      const report = result.projection!;
      const standalone = projectToolOutputForModel(result.outcome, { policy, estimator });
      expect(result.content).toBe(standalone.content);
      expect(report).toStrictEqual(standalone.report);
      expect(report).toStrictEqual(
        expectedReport(renderToolMessage(result.outcome), result.content, estimator ?? fallbackTextTokenEstimator),
      );
      expect(observed).toContain(report);
      expect(Object.isFrozen(report)).toBe(true);
      // Every way of copying or storing it sees every number.
      const plain = JSON.parse(JSON.stringify(standalone.report)) as ToolOutputProjectionReport;
      expect(structuredClone(report)).toStrictEqual(standalone.report);
      expect({ ...report }).toStrictEqual(standalone.report);
      expect(JSON.parse(JSON.stringify(result)).projection).toStrictEqual(plain);
      expect(record.toolOutputProjections.find((audit) => audit.callId === result.callId)?.report).toStrictEqual(plain);
    }
    expect(observed.map((report) => report.truncated)).toEqual([false, false, false, false, false, true, true, true]);
  });
});
