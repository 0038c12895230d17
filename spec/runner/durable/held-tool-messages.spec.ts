import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatMessage, LlmAgentRunner, RunStore, ScriptedModelClient } from '../../../lib';
import type { AppendMessagesOptions } from '../../../lib/durable';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { FunctionProvider } from '../support';

/** Every store write of a run, in order: the method, and for `appendMessages` the roles and origins written. */
function recordingWrites(inner: RunStore): { store: RunStore; writes: string[] } {
  const writes: string[] = [];
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'appendMessages')
        return (runId: string, messages: readonly ChatMessage[], options: AppendMessagesOptions = {}) => {
          const origins = options.origins ?? messages.map(() => options.origin ?? 'other');
          const audits = options.projections?.length ?? 0;
          writes.push(`append ${messages.map((m, i) => `${m.role}:${origins[i]}`).join(',')} audits=${audits}`);
          return method.call(target, runId, messages, options);
        };
      if (['recordCallStarted', 'admitOutcome', 'setStatus', 'createRun'].includes(String(property)))
        return (...args: unknown[]) => {
          writes.push(String(property));
          return method.apply(target, args);
        };
      return method.bind(target);
    },
  });
  return { store, writes };
}

describe('Tool messages ride with the next write of a durable run', () => {
  let dir: string;
  let inner: SqliteRunStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wuwe-held-'));
    inner = new SqliteRunStore(join(dir, 'runs.db'));
  });
  afterEach(async () => {
    await inner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a call costs its start and its admission; its Tool message and audit go with the model answer', async () => {
    const { store, writes } = recordingWrites(inner);
    const provider = new FunctionProvider().add('a', () => 'A').add('b', () => 'B');
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'c1', name: 'a', arguments: {} },
          { id: 'c2', name: 'b', arguments: {} },
        ],
      },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go', { store, runId: 'r' });
    expect(result.text).toBe('done');
    const calls = writes.filter((write) => write === 'recordCallStarted' || write === 'admitOutcome');
    expect(calls).toHaveLength(4);
    expect(writes.filter((write) => write.startsWith('append'))).toEqual([
      'append user:other audits=0',
      'append assistant:model audits=0',
      'append tool:other,tool:other,assistant:model audits=2',
    ]);
    expect(writes.at(-1)).toBe('setStatus');
    const record = (await inner.loadRun('r'))!;
    expect(record.messageOrigins).toEqual(['other', 'model', 'other', 'other', 'model']);
    expect(record.toolOutputProjections.map((audit) => audit.messageIndex)).toEqual([2, 3]);
    expect(record.status).toBe('completed');
  });

  it('held Tool messages are written before the status of a run that stops after its tools', async () => {
    const { store, writes } = recordingWrites(inner);
    const provider = new FunctionProvider().add('a', () => 'A');
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'a', arguments: {} }] }]);
    const result = await new LlmAgentRunner(model, provider).complete('go', { store, runId: 'r', maxSteps: 1 });
    expect(result.stopReason).toBe('max_steps');
    expect(writes.slice(-2)).toEqual(['append tool:other audits=1', 'setStatus']);
    const record = (await inner.loadRun('r'))!;
    expect(record.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(record.status).toBe('stopped');
  });

  it('a run that fails asking the model again keeps its Tool messages; a resume answers from the record', async () => {
    const { store } = recordingWrites(inner);
    let ran = 0;
    const provider = new FunctionProvider().add('a', () => `A${(ran += 1)}`);
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'a', arguments: {} }] },
      () => {
        throw new Error('model down');
      },
      { text: 'done' },
    ]);
    const runner = new LlmAgentRunner(model, provider);
    await expect(runner.complete('go', { store, runId: 'r' })).rejects.toThrow('model down');
    const failed = (await inner.loadRun('r'))!;
    expect(failed.status).toBe('failed');
    expect(failed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(failed.toolCalls.map((call) => call.status)).toEqual(['admitted']);
    const resumed = await runner.resume('r', { store });
    expect(resumed.text).toBe('done');
    expect(ran).toBe(1);
  });
});
