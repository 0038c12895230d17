import { ChatMessage, LlmAgentRunner, MemoryRunStore, RunStore, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

describe('durable run statuses', () => {
  it('a run that reaches maxSteps is stored as stopped, not completed, and can be resumed with more steps', async () => {
    const store = new MemoryRunStore();
    const provider = new FunctionProvider().add('greet', () => 'hi');
    const runner = new LlmAgentRunner(
      new ScriptedModelClient([
        ...Array.from({ length: 2 }, (_, turn) => ({
          toolCalls: [{ id: `c${turn}`, name: 'greet', arguments: '{}' }],
        })),
        { text: 'finally' },
      ]),
      provider,
    );
    const stopped = await runner.complete('go', { store, runId: 'r', maxSteps: 2 });
    expect(stopped.stopReason).toBe('max_steps');
    expect((await store.loadRun('r'))!.status).toBe('stopped');
    const resumed = await runner.resume('r', { store, maxSteps: 3 });
    expect(resumed.stopReason).toBe('end_turn');
    expect(resumed.text).toBe('finally');
    expect((await store.loadRun('r'))!.status).toBe('completed');
  });

  it('a Tool message whose write fails leaves no projection audit behind, and the run resumes under another policy', async () => {
    const inner = new MemoryRunStore();
    let failToolMessage = true;
    const store: RunStore = new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'appendMessages')
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        return async (runId: string, messages: readonly ChatMessage[], options?: unknown) => {
          if (failToolMessage && messages.some((message) => message.role === 'tool')) {
            failToolMessage = false;
            throw new Error('disk full');
          }
          return inner.appendMessages(runId, messages, options as never);
        };
      },
    });
    const provider = new FunctionProvider().add('greet', () => 'x'.repeat(5000));
    const runner = new LlmAgentRunner(
      // The Tool message is written with the model's next response, so the resumed run asks for that answer again.
      new ScriptedModelClient([
        { toolCalls: [{ id: 'c1', name: 'greet', arguments: '{}' }] },
        { text: 'done' },
        { text: 'done' },
      ]),
      provider,
    );
    await expect(
      runner.complete('go', { store, runId: 'r', toolOutputProjection: { maxBytes: 1024, maxTokens: 1000 } }),
    ).rejects.toThrow('disk full');
    const failed = (await inner.loadRun('r'))!;
    expect(failed.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(failed.toolOutputProjections).toEqual([]);
    const resumed = await runner.resume('r', { store, toolOutputProjection: { maxBytes: 2048, maxTokens: 2000 } });
    expect(resumed.stopReason).toBe('end_turn');
    const record = (await inner.loadRun('r'))!;
    expect(record.toolOutputProjections.map((entry) => entry.report.maxBytes)).toEqual([2048]);
  });
});
