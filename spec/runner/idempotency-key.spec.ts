import 'reflect-metadata';
import { CompletedCall, deriveIdempotencyKey, RunInProgress } from '../../lib/runner';
import { LlmAgentRunner, ModelToolCall, ScriptedModelClient, ToolCallResult } from '../../lib';
import { FunctionProvider } from './support';

const model = () => new ScriptedModelClient([{ text: 'unused' }]);

describe('ToolCallResult.idempotencyKey', () => {
  it('a spread copy, a structuredClone and a JSON copy of a result keep its idempotency key', async () => {
    const provider = new FunctionProvider().add('echo', () => 'ok').add('slow', async () => 'later');
    const turns = [
      {
        toolCalls: [
          { id: 'm1', name: 'echo', arguments: '{}' },
          { id: 'm2', name: 'slow', arguments: '{}' },
          { id: 'm3', name: 'missing', arguments: '{}' },
        ],
      },
      { text: 'done' },
    ];
    const ran = await new LlmAgentRunner(new ScriptedModelClient(turns), provider).complete('go', {
      runId: 'run-copy',
    });
    const invoked = await new LlmAgentRunner(model(), provider).invokeToolCall(
      { id: 'i1', name: 'echo', arguments: {} },
      { runId: 'run-copy' },
    );
    const results: ToolCallResult[] = [...ran.toolCalls, invoked];
    expect(results.map((result) => result.idempotencyKey)).toEqual([
      deriveIdempotencyKey('run-copy', 1, 'm1'),
      deriveIdempotencyKey('run-copy', 1, 'm2'),
      deriveIdempotencyKey('run-copy', 1, 'm3'),
      deriveIdempotencyKey('run-copy', 1, 'i1'),
    ]);
    for (const result of results) {
      expect(Object.keys(result)).toContain('idempotencyKey');
      expect({ ...result }.idempotencyKey).toBe(result.idempotencyKey);
      expect(structuredClone(result).idempotencyKey).toBe(result.idempotencyKey);
      expect((JSON.parse(JSON.stringify(result)) as ToolCallResult).idempotencyKey).toBe(result.idempotencyKey);
      expect(Object.assign({}, result)).toEqual(JSON.parse(JSON.stringify(result)));
    }
  });

  it('a provider that declares the idempotencyKey capability gets the key the result reports', async () => {
    const provider = new FunctionProvider({ idempotencyKey: true }).add('keyed', () => 'ok', {
      idempotency: 'idempotent_with_key',
    });
    const result = await new LlmAgentRunner(model(), provider).invokeToolCall(
      { id: 'k', name: 'keyed', arguments: {} },
      { runId: 'run-k' },
    );
    expect(provider.calls.map((call) => call.idempotencyKey)).toEqual([deriveIdempotencyKey('run-k', 1, 'k')]);
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-k', 1, 'k'));
  });

  it('keys read after the run ended are those of each call turn, even when the model reuses a call id', async () => {
    const turns = [
      { toolCalls: [{ id: 'call_0', name: 'echo', arguments: '{}' }] },
      { toolCalls: [{ id: 'call_0', name: 'echo', arguments: '{}' }] },
      { text: 'done' },
    ];
    const runner = new LlmAgentRunner(
      new ScriptedModelClient(turns),
      new FunctionProvider().add('echo', () => 'ok'),
    );
    const result = await runner.complete('go', { runId: 'run-t' });
    expect(result.toolCalls.map((call) => call.idempotencyKey)).toEqual([
      deriveIdempotencyKey('run-t', 1, 'call_0'),
      deriveIdempotencyKey('run-t', 2, 'call_0'),
    ]);
  });

  it('a result written as JSON carries its key and every other field, in the documented order', async () => {
    const runner = new LlmAgentRunner(
      model(),
      new FunctionProvider().add('echo', () => 'ok', {}, { a: { type: 'number' } }),
    );
    const result = await runner.invokeToolCall({ id: 'j', name: 'echo', arguments: '{"a":1}' }, { runId: 'run-j' });
    const written = JSON.parse(JSON.stringify(result)) as ToolCallResult;
    expect(Object.keys(written)).toEqual([
      'callId',
      'turn',
      'toolName',
      'rawArguments',
      'arguments',
      'outcome',
      'attempts',
      'idempotencyKey',
      'content',
      'projection',
      'durationMs',
    ]);
    expect(written.idempotencyKey).toBe(deriveIdempotencyKey('run-j', 1, 'j'));
    expect(written.outcome).toEqual({ ok: true, text: 'ok' });
    expect(written.arguments).toEqual({ a: 1 });
  });

  it('an overridden idempotencyKeyOf still decides the key, and a completeToolCall override that copies its argument keeps it', async () => {
    class Custom extends LlmAgentRunner {
      protected override idempotencyKeyOf(run: RunInProgress, call: ModelToolCall): string {
        return `custom-${run.turn}-${call.id}`;
      }
      protected override completeToolCall(run: RunInProgress, call: ModelToolCall, result: CompletedCall) {
        return super.completeToolCall(run, call, { ...result, attempts: result.attempts });
      }
    }
    const provider = new FunctionProvider({ idempotencyKey: true }).add('keyed', () => 'ok', {
      idempotency: 'idempotent_with_key',
    });
    const result = await new Custom(model(), provider).invokeToolCall({ id: 'c', name: 'keyed', arguments: {} });
    expect(provider.calls[0].idempotencyKey).toBe('custom-1-c');
    expect(result.idempotencyKey).toBe('custom-1-c');
  });

  it('a completeToolCall override that copies its argument keeps the derived key too', async () => {
    class Copying extends LlmAgentRunner {
      protected override completeToolCall(run: RunInProgress, call: ModelToolCall, result: CompletedCall) {
        return super.completeToolCall(run, call, { ...result });
      }
    }
    const result = await new Copying(
      model(),
      new FunctionProvider().add('echo', () => 'ok'),
    ).invokeToolCall({ id: 'd', name: 'echo', arguments: {} }, { runId: 'run-d' });
    expect(result.idempotencyKey).toBe(deriveIdempotencyKey('run-d', 1, 'd'));
  });
});
