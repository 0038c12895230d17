import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

describe('LlmAgentRunner with an answer cut at max_tokens', () => {
  it('runs none of its tool calls; each gets incomplete_tool_call and the run goes on', async () => {
    const provider = new FunctionProvider().add(
      'write_file',
      () => 'written',
      { sideEffect: 'write' },
      { content: { type: 'string' } },
    );
    const model = new ScriptedModelClient([
      {
        toolCalls: [{ id: 'w1', name: 'write_file', arguments: { content: 'the first half of the fi' } }],
        stopReason: 'max_tokens',
      },
      { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { content: 'short' } }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('write it');
    expect(provider.calls.map((call) => call.arguments)).toEqual([{ content: 'short' }]);
    expect(result.toolCalls[0].outcome.error).toMatchObject({ code: 'incomplete_tool_call', category: 'validation' });
    const firstToolMessage = model.requests[1].messages.find((message) => message.role === 'tool')!;
    expect(firstToolMessage).toMatchObject({ toolCallId: 'w1', isError: true });
    expect(JSON.parse((firstToolMessage as { content: string }).content).error.code).toBe('incomplete_tool_call');
    expect(result.text).toBe('done');
    expect(result.stopReason).toBe('end_turn');
  });
});
