import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

/** A runner with a harmless read tool and a destructive tool that needs approval (no handler: always denied). */
function tools() {
  const provider = new FunctionProvider()
    .add('read_thing', () => 'read')
    .add('delete_all', () => 'deleted', { sideEffect: 'destructive', approval: 'always' });
  return { provider, runner: new LlmAgentRunner(new ScriptedModelClient([]), provider) };
}

describe('invokeToolCall reads the host call once', () => {
  it('a name getter that names a harmless tool first and a gated one later never runs the gated tool', async () => {
    const { provider, runner } = tools();
    let reads = 0;
    const call = { id: 'c1', arguments: {} } as Record<string, unknown>;
    Object.defineProperty(call, 'name', { enumerable: true, get: () => (reads++ === 0 ? 'read_thing' : 'delete_all') });
    const result = await runner.invokeToolCall(call as never);
    expect(reads).toBe(1);
    expect(result.toolName).toBe('read_thing');
    expect(provider.calls.map((invocation) => invocation.toolName)).toEqual(['read_thing']);
  });

  it('a call that is not one is invalid_input and nothing runs', async () => {
    const { provider, runner } = tools();
    const calls: unknown[] = [
      null,
      undefined,
      'delete_all',
      { id: 123, name: 'read_thing', arguments: {} },
      { id: '', name: 'read_thing', arguments: {} },
      { name: 'read_thing', arguments: {} },
      { id: '\ud800', name: 'read_thing', arguments: {} },
      { id: 'c1', name: 7, arguments: {} },
      { id: 'c1', name: 'read_thing', arguments: [1] },
      {
        get id(): string {
          throw new Error('getter');
        },
        name: 'read_thing',
        arguments: {},
      },
    ];
    for (const call of calls)
      await expect(runner.invokeToolCall(call as never)).rejects.toMatchObject({
        name: 'LlmAgentError',
        code: 'invalid_input',
      });
    expect(provider.calls).toHaveLength(0);
  });
});
