import { canonicalArgumentsSha256 } from '../../lib/durable';
import { Field, LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

class Verdict {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Degrees Celsius.' }) degrees!: number;
}

function tools(): FunctionProvider {
  return new FunctionProvider()
    .add('weather', () => ({ degrees: 22 }), { sideEffect: 'read' }, { city: { type: 'string' } })
    .add('book', () => 'booked', { sideEffect: 'destructive' });
}

describe('resume() with output in native mode', () => {
  it('a native-mode run suspended on an approval is resumed with the format, and its JSON answer (after one repair) is the typed output', async () => {
    const store = new MemoryRunStore();
    const first = new ScriptedModelClient(
      [
        {
          toolCalls: [
            { id: 'w', name: 'weather', arguments: { city: 'Rome' } },
            { id: 'b', name: 'book', arguments: {} },
          ],
        },
      ],
      { supportsResponseFormat: true },
    );
    const suspended = await new LlmAgentRunner(first, tools()).complete('Plan a trip to Rome', {
      store,
      runId: 'native',
      output: Verdict,
      outputPolicy: { mode: 'native' },
    });
    expect(suspended.stopReason).toBe('awaiting_approval');
    expect(first.requests[0].responseFormat).toMatchObject({ type: 'json_schema' });
    await store.decideApproval('native', 'b', {
      approved: true,
      toolName: 'book',
      argumentsSha256: canonicalArgumentsSha256({}),
    });

    const model = new ScriptedModelClient([{ text: 'Rome is sunny' }, { text: '{"city":"Rome","degrees":22}' }], {
      supportsResponseFormat: true,
    });
    const result = await new LlmAgentRunner(model, tools()).resume('native', {
      store,
      output: Verdict,
      outputPolicy: { mode: 'native' },
    });
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output).toMatchObject({ city: 'Rome', degrees: 22 });
    expect(model.requests.map((request) => request.responseFormat?.type)).toEqual(['json_schema', 'json_schema']);
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['weather', 'book']);
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'user' });
    expect((await store.loadRun('native'))!.status).toBe('completed');
  });
});
