import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlmAgentRunner, RunStore, ScriptedModelClient } from '../../../lib';
import type { CreateRunOptions, SetStatusOptions } from '../../../lib/durable';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { FunctionProvider } from '../support';

/** The store operations a run makes on `inner`, in order, with the lease options of `createRun` and `setStatus`. */
function recordingOperations(inner: RunStore): { store: RunStore; operations: string[] } {
  const operations: string[] = [];
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (property === 'createRun') {
          const lease = (args[0] as CreateRunOptions | undefined)?.lease;
          operations.push(lease === undefined ? 'createRun' : `createRun leased to ${lease.workerId}`);
        } else if (property === 'setStatus') {
          const releasing = (args[2] as SetStatusOptions | undefined)?.releaseLease;
          operations.push(`setStatus ${String(args[1])}${releasing === undefined ? '' : ` releasing ${releasing}`}`);
        } else if (['acquireLease', 'releaseLease', 'loadRun'].includes(String(property)))
          operations.push(String(property));
        return method.apply(target, args);
      };
    },
  });
  return { store, operations };
}

/** A store that knows neither `lease` on `createRun` nor `releaseLease` on `setStatus`, as one written before them. */
function storeWithoutLeasedWrites(inner: RunStore): RunStore {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'createRun')
        return ({ lease: _lease, ...options }: CreateRunOptions = {}) => target.createRun(options);
      if (property === 'setStatus')
        return async (runId: string, status: never, { releaseLease: _release, ...options }: SetStatusOptions = {}) => {
          await target.setStatus(runId, status, options);
        };
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('A durable run takes its lease with its creation and gives it back with its status', () => {
  let dir: string;
  let inner: SqliteRunStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wuwe-leased-'));
    inner = new SqliteRunStore(join(dir, 'runs.db'));
  });
  afterEach(async () => {
    await inner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const provider = () => new FunctionProvider().add('a', () => 'A');
  const oneCall = () =>
    new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'a', arguments: {} }] }, { text: 'done' }]);

  it('a new run is created leased and ends with the status that releases the lease: no lease write of its own', async () => {
    const { store, operations } = recordingOperations(inner);
    const result = await new LlmAgentRunner(oneCall(), provider()).complete('go', {
      store,
      runId: 'r',
      workerId: 'w1',
    });
    expect(result.text).toBe('done');
    expect(operations).toEqual(['createRun leased to w1', 'setStatus completed releasing w1']);
    const record = (await inner.loadRun('r'))!;
    expect(record.status).toBe('completed');
    expect(record.lease).toBeUndefined();
    expect(record.toolCalls.map((call) => call.status)).toEqual(['admitted']);
    expect(await inner.acquireLease('r', 'w2', 1000)).toBe(true);
  });

  it('a run whose model fails is stored failed, its lease released by that write', async () => {
    const { store, operations } = recordingOperations(inner);
    const model = new ScriptedModelClient([]);
    await expect(
      new LlmAgentRunner(model, provider()).complete('go', { store, runId: 'r', workerId: 'w1' }),
    ).rejects.toThrow();
    expect(operations).toEqual(['createRun leased to w1', 'setStatus failed releasing w1']);
    const record = (await inner.loadRun('r'))!;
    expect(record.status).toBe('failed');
    expect(record.lease).toBeUndefined();
  });

  it('a resume acquires the lease and reads the record under it, then releases it with the status', async () => {
    await new LlmAgentRunner(oneCall(), provider()).complete('go', { store: inner, runId: 'r', maxSteps: 1 });
    const { store, operations } = recordingOperations(inner);
    const resumed = await new LlmAgentRunner(new ScriptedModelClient([{ text: 'done' }]), provider()).resume('r', {
      store,
      workerId: 'w2',
    });
    expect(resumed.text).toBe('done');
    expect(operations).toEqual(['acquireLease', 'loadRun', 'setStatus running', 'setStatus completed releasing w2']);
    expect((await inner.loadRun('r'))!.lease).toBeUndefined();
  });

  it('with a store that knows neither option, the run acquires and releases its lease as separate writes', async () => {
    const { store, operations } = recordingOperations(storeWithoutLeasedWrites(inner));
    const result = await new LlmAgentRunner(oneCall(), provider()).complete('go', {
      store,
      runId: 'r',
      workerId: 'w1',
    });
    expect(result.text).toBe('done');
    expect(operations).toEqual([
      'createRun leased to w1',
      'acquireLease',
      'loadRun',
      'setStatus completed releasing w1',
      'releaseLease',
    ]);
    const record = (await inner.loadRun('r'))!;
    expect(record.status).toBe('completed');
    expect(record.lease).toBeUndefined();
  });

  it('a run created leased still fences its writes: a worker that took the lease over makes them fail', async () => {
    const clock = { now: Date.now() };
    // The store's clock moves past the lease while the tool runs, and another worker takes the run over.
    const provider = new FunctionProvider().add('a', async () => {
      clock.now += 120_000;
      expect(await inner.acquireLease('r', 'w2', 60_000)).toBe(true);
      return 'A';
    });
    await inner.close();
    inner = new SqliteRunStore({ path: join(dir, 'runs.db'), clock: () => clock.now });
    await expect(
      new LlmAgentRunner(oneCall(), provider).complete('go', { store: inner, runId: 'r', workerId: 'w1' }),
    ).rejects.toMatchObject({ code: 'lease_held' });
    const record = (await inner.loadRun('r'))!;
    expect(record.lease!.workerId).toBe('w2');
    expect(record.status).toBe('running');
    expect(record.toolCalls.map((call) => call.status)).toEqual(['started']);
  });
});
