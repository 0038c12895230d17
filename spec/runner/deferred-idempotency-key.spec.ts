import 'reflect-metadata';
import crypto from 'node:crypto';
import { CompletedCall, deriveIdempotencyKey, LlmAgentRunner, ModelToolCall, RunState, ScriptedModelClient, ToolCallResult } from '../../lib';
import { FunctionProvider } from './support';

const model = () => new ScriptedModelClient([{ text: 'unused' }]);

/** SHA-256 digests of (runId, turn, callId) texts made while `body` runs: how many idempotency keys were derived. */
async function keysDerivedDuring<T>(callId: string, body: () => Promise<T>): Promise<{ value: T; derived: () => number }> {
  const spy = jest.spyOn(crypto, 'hash');
  const derived = (): number => spy.mock.calls.filter(([algorithm, data]) => algorithm === 'sha256' && typeof data === 'string' && data.endsWith(`\u0000${callId}`)).length;
  try {
    return { value: await body(), derived };
  } finally {
    // Keep counting reads made after the run: the spy stays until the test ends.
    afterSpy.push(spy);
  }
}
const afterSpy: jest.SpyInstance[] = [];
afterEach(() => afterSpy.splice(0).forEach((spy) => spy.mockRestore()));

describe('idempotency key derived when read', () => {
  it('a call with no store and no key-reading provider derives its key only when the result is read, once', async () => {
    const runner = new LlmAgentRunner(model(), new FunctionProvider().add('echo', () => 'ok'));
    const { value: result, derived } = await keysDerivedDuring('lazy-1', () => runner.invokeToolCall({ id: 'lazy-1', name: 'echo', arguments: {} }, { runId: 'run-a' }));
    expect(result.outcome.ok).toBe(true);
    expect(derived()).toBe(0);
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-a', 1, 'lazy-1'));
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-a', 1, 'lazy-1'));
    expect(derived()).toBe(3); // one for the result (kept), two for the expectations
  });

  it('a provider that declares the idempotencyKey capability gets the key the result reports', async () => {
    const provider = new FunctionProvider({ idempotencyKey: true }).add('keyed', () => 'ok', { idempotency: 'idempotent_with_key' });
    const result = await new LlmAgentRunner(model(), provider).invokeToolCall({ id: 'k', name: 'keyed', arguments: {} }, { runId: 'run-k' });
    expect(provider.calls.map((call) => call.idempotencyKey)).toEqual([deriveIdempotencyKey('run-k', 1, 'k')]);
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-k', 1, 'k'));
  });

  it('keys read after the run ended are those of each call turn, even when the model reuses a call id', async () => {
    const turns = [{ toolCalls: [{ id: 'call_0', name: 'echo', arguments: '{}' }] }, { toolCalls: [{ id: 'call_0', name: 'echo', arguments: '{}' }] }, { text: 'done' }];
    const runner = new LlmAgentRunner(new ScriptedModelClient(turns), new FunctionProvider().add('echo', () => 'ok'));
    const result = await runner.complete('go', { runId: 'run-t' });
    expect(result.toolCalls.map((call) => call.idempotencyKey)).toEqual([deriveIdempotencyKey('run-t', 1, 'call_0'), deriveIdempotencyKey('run-t', 2, 'call_0')]);
  });

  it('a result written as JSON carries its key and every other field, in the documented order', async () => {
    const runner = new LlmAgentRunner(model(), new FunctionProvider().add('echo', () => 'ok', {}, { a: { type: 'number' } }));
    const result = await runner.invokeToolCall({ id: 'j', name: 'echo', arguments: '{"a":1}' }, { runId: 'run-j' });
    const written = JSON.parse(JSON.stringify(result)) as ToolCallResult;
    expect(Object.keys(written)).toEqual(['callId', 'turn', 'toolName', 'rawArguments', 'arguments', 'outcome', 'attempts', 'idempotencyKey', 'content', 'projection', 'durationMs']);
    expect(written.idempotencyKey).toBe(deriveIdempotencyKey('run-j', 1, 'j'));
    expect(written.outcome).toEqual({ ok: true, text: 'ok' });
    expect(written.arguments).toEqual({ a: 1 });
  });

  it('an overridden idempotencyKeyOf still decides the key, and a completeToolCall override that copies its argument keeps it', async () => {
    class Custom extends LlmAgentRunner {
      protected override idempotencyKeyOf(run: RunState, call: ModelToolCall): string {
        return `custom-${run.turn}-${call.id}`;
      }
      protected override completeToolCall(run: RunState, call: ModelToolCall, result: CompletedCall) {
        return super.completeToolCall(run, call, { ...result, attempts: result.attempts });
      }
    }
    const provider = new FunctionProvider({ idempotencyKey: true }).add('keyed', () => 'ok', { idempotency: 'idempotent_with_key' });
    const result = await new Custom(model(), provider).invokeToolCall({ id: 'c', name: 'keyed', arguments: {} });
    expect(provider.calls[0].idempotencyKey).toBe('custom-1-c');
    expect(result.idempotencyKey).toBe('custom-1-c');
  });

  it('a completeToolCall override that copies its argument keeps the derived key too', async () => {
    class Copying extends LlmAgentRunner {
      protected override completeToolCall(run: RunState, call: ModelToolCall, result: CompletedCall) {
        return super.completeToolCall(run, call, { ...result });
      }
    }
    const result = await new Copying(model(), new FunctionProvider().add('echo', () => 'ok')).invokeToolCall({ id: 'd', name: 'echo', arguments: {} }, { runId: 'run-d' });
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-d', 1, 'd'));
  });
});
