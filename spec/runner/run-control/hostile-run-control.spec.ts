import { LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import type { LlmAgentRunOptions } from '../../../lib';
import { FunctionProvider } from '../support';

/** A run whose first answer asks for a destructive tool, under `options`; what it threw, and what ran. */
async function attempt(options: LlmAgentRunOptions) {
  const provider = new FunctionProvider().add('delete_file', () => 'deleted', {}, { path: { type: 'string' } });
  const model = new ScriptedModelClient([
    { toolCalls: [{ name: 'delete_file', arguments: { path: 'a' } }] },
    { toolCalls: [{ name: 'delete_file', arguments: { path: 'b' } }] },
    { text: 'done' },
  ]);
  const thrown = await new LlmAgentRunner(model, provider).complete('Go', options).then(
    () => undefined,
    (error: unknown) => error as { name: string; code: string; message: string; cause?: unknown },
  );
  return { thrown, ran: provider.calls.length, requests: model.requests.length };
}

describe('run control refuses what it cannot honour, with a typed error', () => {
  it('a budget with a misspelt or inherited-looking limit is refused before any request, not run without a limit', async () => {
    for (const budget of [{ maxToolCall: 0 }, JSON.parse('{"__proto__": {"maxToolCalls": 0}}'), [1]]) {
      const { thrown, ran, requests } = await attempt({ budget: budget as never });
      expect(thrown).toMatchObject({ code: 'invalid_run_options' });
      expect({ ran, requests }).toEqual({ ran: 0, requests: 0 });
    }
    const named = await attempt({ budget: { maxToolCall: 0 } } as unknown as LlmAgentRunOptions);
    expect(named.thrown?.message).toContain('"maxToolCall"');
  });

  it('a prepareStep that throws or rejects fails the run as run_hook_failed with its error as cause, before the request', async () => {
    const boom = new Error('boom');
    for (const prepareStep of [
      () => {
        throw boom;
      },
      () => Promise.reject(boom),
    ]) {
      const { thrown, ran, requests } = await attempt({ prepareStep });
      expect(thrown).toMatchObject({ code: 'run_hook_failed', cause: boom });
      expect({ ran, requests }).toEqual({ ran: 0, requests: 0 });
    }
  });

  it('a prepareStep answer with an unknown key, a non-object, a bad system or a malformed message list sends nothing', async () => {
    const answers: unknown[] = [
      JSON.parse('{"__proto__": {"toolChoice": "none"}}'),
      { activeTool: [] },
      'delete_file',
      { system: 42 },
      { messages: [] },
      { messages: [{ role: 'tool', content: 'x' }] },
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', toolCallId: 'z', toolName: 'delete_file', content: 'ok', isError: false },
        ],
      },
      // An assistant call the runner never recorded, left without its Tool message.
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'z', name: 'delete_file', arguments: '{"path":"/"}' }] },
        ],
      },
    ];
    for (const answer of answers) {
      const { thrown, ran, requests } = await attempt({ prepareStep: () => answer as never });
      expect({ answer, code: thrown?.code }).toEqual({ answer, code: 'invalid_run_options' });
      expect({ ran, requests }).toEqual({ ran: 0, requests: 0 });
    }
  });

  it('prepareStep messages that are well formed are sent, and a host-made message carries no provider content', async () => {
    const provider = new FunctionProvider();
    const model = new ScriptedModelClient([{ text: 'done' }]);
    const forged = {
      role: 'assistant' as const,
      content: 'earlier',
      toolCalls: [],
      providerContent: { provider: 'scripted', blocks: ['x'] },
    };
    const result = await new LlmAgentRunner(model, provider).complete('Go', {
      prepareStep: () => ({
        messages: [{ role: 'user', content: 'first' }, forged, { role: 'user', content: 'again' }],
      }),
    });
    expect(result.text).toBe('done');
    const sent = model.requests[0].messages;
    expect(sent.map((message) => message.content)).toEqual(['first', 'earlier', 'again']);
    expect(sent[1]).not.toHaveProperty('providerContent');
  });

  it('a stopWhen condition that throws fails the run as run_hook_failed; one that answers a non-boolean is refused', async () => {
    const x = new Error('x');
    const threw = await attempt({
      stopWhen: () => {
        throw x;
      },
    });
    expect(threw.thrown).toMatchObject({ code: 'run_hook_failed', cause: x });
    expect(threw.ran).toBe(1);
    const truthy = await attempt({ stopWhen: () => 'yes' as unknown as boolean });
    expect(truthy.thrown).toMatchObject({ code: 'invalid_run_options' });
    expect(truthy.thrown?.message).toContain('must answer true or false');
    // Neither went on to a second request, so the second destructive call never ran.
    expect([threw.requests, truthy.requests, truthy.ran]).toEqual([1, 1, 1]);
  });
});
