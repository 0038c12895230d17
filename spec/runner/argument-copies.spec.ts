import { JsonObject, LlmAgentRunner, ScriptedModelClient, standardFailure } from '../../lib';
import { FunctionProvider } from './support';

describe('each attempt gets its own copy of the validated arguments', () => {
  it('a tool that mutates its arguments in attempt 1 changes nothing attempt 2, approval or the result see', async () => {
    const seen: JsonObject[] = [];
    const approved: JsonObject[] = [];
    const provider = new FunctionProvider().add(
      'tag',
      (invocation) => {
        seen.push(structuredClone(invocation.arguments));
        const args = invocation.arguments as { name: string; tags: string[] };
        if (invocation.attempt === 1) {
          args.tags.push('mutated');
          args.name = 'changed';
          return standardFailure('unavailable', 'try again');
        }
        return 'tagged';
      },
      { idempotency: 'idempotent', approval: 'always', retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 } },
      { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    );
    const original = { name: 'a', tags: ['x'] };
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'tag', arguments: JSON.stringify(original) }] }, { text: 'done' }]);
    const result = await new LlmAgentRunner(model, provider).complete('go', { approvalHandler: (request) => (approved.push(request.arguments), { approved: true }) });
    expect(result.toolCalls[0]).toMatchObject({ outcome: { ok: true, text: 'tagged' }, attempts: 2 });
    expect(seen).toEqual([original, original]);
    expect(approved).toEqual([original]);
    expect(result.toolCalls[0].arguments).toEqual(original);
    expect(provider.calls[0].arguments).not.toBe(provider.calls[1].arguments);
  });
});
