import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { LlmAgentEvent, LlmAgentRunner, MemoryRunStore, RunStore, ScriptedModelClient } from '../../../lib';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { describePostgres, requirePostgresUrl, TestSchemas } from '../../durable/postgres-env';
import { makeTempDir } from '../../durable/temp-dir';
import type { KeyWorkerOptions, KeyWorkerReport } from './key-budget-worker';
import { pingModel, pingProvider } from './key-budget-worker';

const temp = makeTempDir('key-budgets');
const schemas = new TestSchemas();
afterAll(async () => {
  temp.cleanup();
  await schemas.dropAll();
});
jest.setTimeout(60_000);
let counter = 0;
const nextPath = (): string => join(temp.path, `db-${++counter}`, 'runs.db');

/** Starts a worker; `go` lets it run, `done` is its report (or its exit code when it sent none). */
function startWorker(options: KeyWorkerOptions): {
  go: () => void;
  ready: Promise<void>;
  done: Promise<KeyWorkerReport | number>;
} {
  const child: ChildProcess = fork(join(__dirname, 'key-budget-worker.ts'), [JSON.stringify(options)], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: 'inherit',
  });
  const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
  const done = new Promise<KeyWorkerReport | number>((resolve) => {
    let report: KeyWorkerReport | undefined;
    child.on('message', (message) => {
      if (typeof message === 'object') report = message as KeyWorkerReport;
    });
    child.on('exit', (code) => resolve(report ?? code ?? -1));
  });
  return { go: () => child.send('go'), ready, done };
}

/** Two processes run one key each wanting 4 tool calls; the key allows 5. */
async function twoProcessesShareOneKey(
  store: RunStore,
  kind: 'sqlite' | 'postgres',
  location: string,
  schema?: string,
) {
  await store.budgetKeys!.setKeyBudget('tenant', { maxToolCalls: 5 });
  const workers = ['run-a', 'run-b'].map((runId) =>
    startWorker({ kind, location, ...(schema === undefined ? {} : { schema }), runId, key: 'tenant', turns: 4 }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.go();
  const reports = (await Promise.all(workers.map((worker) => worker.done))) as KeyWorkerReport[];
  expect(reports.map((report) => typeof report)).toEqual(['object', 'object']);
  // Never more than the key allows, across both processes: 8 asked for, 5 ran.
  expect(reports.reduce((sum, report) => sum + report.executed, 0)).toBe(5);
  expect((await store.budgetKeys!.loadKeyBudget('tenant'))!.spent.toolCalls).toBe(5);
  const stopped = reports.filter((report) => report.stopReason === 'budget_exhausted');
  expect(stopped.length).toBeGreaterThanOrEqual(1);
  for (const report of stopped) {
    expect(report.exhausted).toEqual({ key: 'tenant', limit: 'maxToolCalls' });
    expect(await store.budgetKeys!.loadBudgetExhaustion(report.runId)).toMatchObject({
      key: 'tenant',
      limit: 'maxToolCalls',
      at: 'tool_call',
    });
  }
}

describe('budgetKey', () => {
  it('is refused before any request on a store without budgetKeys, or without a store', async () => {
    const memory = new MemoryRunStore();
    const keyless = Object.create(memory, { budgetKeys: { value: undefined } }) as RunStore;
    const model = pingModel(1);
    const runner = new LlmAgentRunner(model, pingProvider());
    await expect(runner.complete('Ping.', { store: keyless, budgetKey: 'tenant' })).rejects.toMatchObject({
      code: 'invalid_run_options',
      message: expect.stringContaining('does not keep key budgets'),
    });
    await expect(runner.complete('Ping.', { budgetKey: 'tenant' })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    await expect(runner.complete('Ping.', { store: memory, budgetKey: '' })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    expect(model.requests).toHaveLength(0);
    expect(await memory.listRuns()).toEqual([]);
  });

  it('fails a run whose key was never set, before any request', async () => {
    const store = new MemoryRunStore();
    const model = pingModel(1);
    await expect(
      new LlmAgentRunner(model, pingProvider()).complete('Ping.', { store, budgetKey: 'nobody' }),
    ).rejects.toMatchObject({ code: 'budget_key_not_found' });
    expect(model.requests).toHaveLength(0);
  });

  it('two runs of one key on one SQLite file never overshoot, and the records say which limit tripped', async () => {
    const path = nextPath();
    const [first, second] = [new SqliteRunStore(path), new SqliteRunStore(path)];
    await first.budgetKeys.setKeyBudget('tenant', { maxToolCalls: 5, maxModelRequests: 20 });
    const run = async (store: SqliteRunStore, runId: string) => {
      const provider = pingProvider();
      const result = await new LlmAgentRunner(pingModel(4), provider).complete('Ping.', {
        store,
        runId,
        budgetKey: 'tenant',
      });
      return { result, executed: provider.calls.length };
    };
    const runs = await Promise.all([run(first, 'run-a'), run(second, 'run-b')]);
    expect(runs[0].executed + runs[1].executed).toBe(5);
    const key = (await first.budgetKeys.loadKeyBudget('tenant'))!;
    expect(key.spent).toMatchObject({ toolCalls: 5, inputTokens: key.spent.modelRequests * 10 });
    expect(key.inFlight).toBe(0);
    const stopped = runs.filter((one) => one.result.stopReason === 'budget_exhausted');
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    for (const { result } of stopped) {
      expect(result.keyBudget).toMatchObject({
        key: 'tenant',
        exhausted: { key: 'tenant', limit: 'maxToolCalls', max: 5, at: 'tool_call' },
        remaining: { maxToolCalls: 0 },
      });
      expect((await first.loadRun(result.runId))!.status).toBe('stopped');
      expect(await second.budgetKeys.loadBudgetExhaustion(result.runId)).toMatchObject({
        key: 'tenant',
        limit: 'maxToolCalls',
      });
    }
    await Promise.all([first.close(), second.close()]);
  });

  it("caps each request's output to what the key leaves and stops before a request it cannot afford", async () => {
    const store = new MemoryRunStore();
    await store.budgetKeys.setKeyBudget('tenant', { maxOutputTokens: 10 });
    const events: LlmAgentEvent[] = [];
    const model = pingModel(4);
    const result = await new LlmAgentRunner(model, pingProvider()).complete('Ping.', {
      store,
      budgetKey: 'tenant',
      onEvent: (event) => events.push(event),
    });
    // 10 left, then 5; after the second response (5 more) nothing is left, so no third request is sent.
    expect(model.requests.map((request) => request.maxOutputTokens)).toEqual([10, 5]);
    expect(result.stopReason).toBe('budget_exhausted');
    expect(result.keyBudget).toMatchObject({ exhausted: { limit: 'maxOutputTokens', at: 'model_request' } });
    expect(await store.budgetKeys.loadBudgetExhaustion(result.runId)).toMatchObject({
      key: 'tenant',
      limit: 'maxOutputTokens',
      max: 10,
      at: 'model_request',
    });
    expect(events.filter((event) => event.type === 'budget_reserved')).toHaveLength(2);
    expect(events.find((event) => event.type === 'budget_reserved')).toMatchObject({ budgetKey: 'tenant' });
    expect(events.find((event) => event.type === 'budget_exhausted')).toMatchObject({
      key: 'tenant',
      limit: 'maxOutputTokens',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', keyBudgetRemaining: { maxOutputTokens: 0 } });
  });

  it('counts a model request retried after a failure once', async () => {
    const store = new MemoryRunStore();
    await store.budgetKeys.setKeyBudget('tenant', { maxModelRequests: 2 });
    let failNext = true;
    const model = new ScriptedModelClient(
      [
        () => {
          if (failNext) {
            failNext = false;
            throw new Error('upstream overloaded');
          }
          return { text: 'done', usage: { inputTokens: 10, outputTokens: 5 } };
        },
      ],
      { whenExhausted: 'repeat' },
    );
    const runner = new LlmAgentRunner(model, pingProvider());
    await expect(runner.complete('Ping.', { store, runId: 'r1', budgetKey: 'tenant' })).rejects.toThrow(/overloaded/);
    expect((await store.budgetKeys.loadKeyBudget('tenant'))!).toMatchObject({
      spent: { modelRequests: 1, inputTokens: 0, outputTokens: 0 },
      inFlight: 0,
    });
    const resumed = await runner.resume('r1', { store, budgetKey: 'tenant' });
    expect(resumed.text).toBe('done');
    expect((await store.budgetKeys.loadKeyBudget('tenant'))!.spent).toMatchObject({
      modelRequests: 1,
      inputTokens: 10,
      outputTokens: 5,
    });
  });

  it('continues across a crash and a resume on SQLite without counting anything twice', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    await store.budgetKeys.setKeyBudget('tenant', { maxModelRequests: 10, maxToolCalls: 10 });
    const worker = startWorker({
      kind: 'sqlite',
      location: path,
      runId: 'crashed',
      key: 'tenant',
      turns: 1,
      mode: 'crash',
    });
    await worker.ready;
    worker.go();
    expect(await worker.done).toBe(9);
    // The crash left the second request's reservation in flight.
    expect((await store.budgetKeys.loadKeyBudget('tenant'))!).toMatchObject({
      spent: { modelRequests: 2, toolCalls: 1, outputTokens: 5 },
      inFlight: 1,
    });
    // The crashed worker's short lease runs out.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const provider = pingProvider();
    const model = new ScriptedModelClient([{ text: 'done', usage: { inputTokens: 10, outputTokens: 5 } }]);
    const result = await new LlmAgentRunner(model, provider).resume('crashed', {
      store,
      budgetKey: 'tenant',
      workerId: 'after-crash',
    });
    expect(result.text).toBe('done');
    expect(provider.calls).toHaveLength(0);
    expect((await store.budgetKeys.loadKeyBudget('tenant'))!).toEqual(
      expect.objectContaining({
        spent: { modelRequests: 2, toolCalls: 1, inputTokens: 20, outputTokens: 10, costUsd: 0 },
        inFlight: 0,
      }),
    );
    await store.close();
  });
});

describePostgres('budgetKey on PostgreSQL', () => {
  it('two processes sharing one key never overshoot', async () => {
    const url = requirePostgresUrl();
    const schema = schemas.fresh();
    const store = await PostgresRunStore.open({ connectionString: url, schema, maxConnections: 2 });
    try {
      await twoProcessesShareOneKey(store, 'postgres', url, schema);
    } finally {
      await store.close();
    }
  });
});

describe('budgetKey on SQLite processes', () => {
  it('two processes sharing one key on one file never overshoot', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    try {
      await twoProcessesShareOneKey(store, 'sqlite', path);
    } finally {
      await store.close();
    }
  });
});
