import { LlmAgentEvent, LlmAgentRunner, ScriptedModelClient, ToolOutcome } from '../../lib';
import { ToolOutputProjectionReport } from '../../lib/projection';
import { InMemoryMemory } from '../../lib/model';
import { FunctionProvider } from './support';

const big = 'x'.repeat(200_000);

describe('LlmAgentRunOptions.toolOutputProjection', () => {
  it('sends only the projected message to the model and memory; onToolResult gets the complete outcome', async () => {
    const provider = new FunctionProvider().add('dump', () => big);
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'dump' }] }, { text: 'ok' }]);
    const memory = new InMemoryMemory();
    const reports: ToolOutputProjectionReport[] = [];
    const events: LlmAgentEvent[] = [];
    const seen: ToolOutcome[] = [];
    const result = await new LlmAgentRunner(model, provider).complete('go', {
      runId: 'r1',
      memory,
      toolOutputProjection: { maxBytes: 4096, maxTokens: 2000 },
      onToolOutputProjection: (report) => reports.push(report),
      onToolResult: (outcome) => void seen.push(outcome),
      onEvent: (event) => events.push(event),
    });
    expect(seen[0].text).toHaveLength(200_000);
    const toolMessage = model.requests[1].messages.find((m) => m.role === 'tool')!;
    expect(Buffer.byteLength((toolMessage as any).content)).toBeLessThanOrEqual(4096);
    expect((toolMessage as any).content).toBe(result.toolCalls[0].content);
    expect((memory.messages('r1').find((m) => m.role === 'tool') as any).content).toBe(result.toolCalls[0].content);
    expect(reports[0]).toMatchObject({ truncated: true, originalBytes: 200_000, maxBytes: 4096, trigger: 'both' });
    expect(events.filter((e) => e.type === 'tool_output_truncated')).toHaveLength(1);
  });

  it('passes small outputs through unchanged and reports every projection without a truncation event', async () => {
    const provider = new FunctionProvider().add('small', () => ({ a: 1 }));
    const events: LlmAgentEvent[] = [];
    const reports: ToolOutputProjectionReport[] = [];
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'small', arguments: {} },
      { onEvent: (e) => events.push(e), onToolOutputProjection: (r) => reports.push(r) },
    );
    expect(record.content).toBe('{"a":1}');
    expect(reports).toHaveLength(1);
    expect(reports[0].truncated).toBe(false);
    expect(events.some((e) => e.type === 'tool_output_truncated')).toBe(false);
  });

  it('a contract tightens the run policy', async () => {
    const provider = new FunctionProvider().add('tight', () => big, { modelOutputProjection: { maxBytes: 1024 } });
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall({
      id: 'c',
      name: 'tight',
      arguments: {},
    });
    expect(Buffer.byteLength(record.content)).toBeLessThanOrEqual(1024);
    expect(record.projection?.maxBytes).toBe(1024);
  });

  it('fails the run before any model or tool call when a policy cannot hold', async () => {
    const provider = new FunctionProvider().add('t', () => 'x');
    const model = new ScriptedModelClient([{ text: 'never' }]);
    await expect(
      new LlmAgentRunner(model, provider).complete('go', { toolOutputProjection: { maxBytes: 100, maxTokens: 10 } }),
    ).rejects.toMatchObject({
      code: expect.any(String),
    });
    await expect(
      new LlmAgentRunner(model, provider).complete('go', {
        contextTokenEstimator: { estimateTokens: () => Number.NaN },
      }),
    ).rejects.toBeInstanceOf(Error);
    expect(model.requests).toHaveLength(0);
    expect(provider.calls).toHaveLength(0);
  });

  it('a projection failure after the outcome becomes tool_output_projection_failed, never the content', async () => {
    // An estimator that holds for every envelope but fails on this one output.
    const estimator = {
      estimateTokens: (text: string) => (text.includes('poison') ? Number.NaN : Math.ceil(Buffer.byteLength(text) / 2)),
    };
    const provider = new FunctionProvider().add('weird', () => 'poison pill');
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'weird', arguments: {} },
      { contextTokenEstimator: estimator },
    );
    expect(record.outcome).toEqual({ ok: true, text: 'poison pill' });
    expect(JSON.parse(record.content).error.code).toBe('tool_output_projection_failed');
    expect(record.content).not.toContain('poison');
  });

  it('the Tool message of a failed projection is flagged as an error, like any failure the model gets', async () => {
    const estimator = {
      estimateTokens: (text: string) => (text.includes('poison') ? Number.NaN : Math.ceil(Buffer.byteLength(text) / 2)),
    };
    const provider = new FunctionProvider().add('weird', () => 'poison pill');
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'weird' }] }, { text: 'ok' }]);
    await new LlmAgentRunner(model, provider).complete('go', { contextTokenEstimator: estimator });
    const toolMessage = model.requests[1].messages.find((m) => m.role === 'tool') as {
      content: string;
      isError: boolean;
    };
    expect(JSON.parse(toolMessage.content).ok).toBe(false);
    expect(toolMessage.isError).toBe(true);
  });
});
