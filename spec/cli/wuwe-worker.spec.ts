import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyRunRecord } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue } from '../../lib/queue';
import { main } from '../../lib/cli/main';
import { describePostgres, TestSchemas } from '../durable/postgres-env';
import { openQueueFixture, QueueFixture } from '../queue/queue-fixture';
import { waitFor } from '../queue/worker-processes';

jest.setTimeout(60_000);
const schemas = new TestSchemas();
let fixture: QueueFixture | undefined;
afterAll(async () => {
  await fixture?.close();
  await schemas.dropAll();
});

function cli(argv: readonly string[], shutdown?: AbortSignal) {
  const output = { stdout: '', stderr: '' };
  const done = main(argv, {
    stdout: (text) => (output.stdout += text),
    stderr: (text) => (output.stderr += text),
    cwd: __dirname,
    env: {},
    shutdown,
  });
  return { output, done };
}

describePostgres('wuwe worker', () => {
  it('executes queued runs with the agent module until shut down, then drains and exits 0', async () => {
    fixture = await openQueueFixture(schemas);
    process.env.LEDGER_SCHEMA = fixture.storeSchema;
    const stop = new AbortController();
    const store = `${fixture.url}?schema=${fixture.storeSchema}`;
    const worker = cli(
      [
        'worker',
        '--store',
        store,
        '--queue-schema',
        fixture.queueSchema,
        '--agent',
        `ledger=${join(__dirname, '../queue/fixtures/ledger-module.ts')}`,
        '--concurrency',
        '2',
      ],
      stop.signal,
    );
    const runId = await fixture.queue.enqueue({ agent: 'ledger', input: 'charge it' });
    await waitFor(
      async () => (await fixture!.store.loadRun(runId))?.status === 'completed',
      40_000,
      'run completed by wuwe worker',
    );
    stop.abort();
    expect(await worker.done).toBe(0);
    expect(worker.output.stderr).toMatch(/^worker .+: agents ledger; 2 at a time;/);
    expect(worker.output.stderr).toContain('stopped\n');
    expect((await fixture.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    delete process.env.LEDGER_SCHEMA;
  });

  it('agents named constructor and __proto__ are agents like any other: each executes its own runs', async () => {
    const f = await openQueueFixture(schemas);
    process.env.LEDGER_SCHEMA = f.storeSchema;
    try {
      const stop = new AbortController();
      const module = join(__dirname, '../queue/fixtures/ledger-module.ts');
      const worker = cli(
        [
          'worker',
          '--store',
          `${f.url}?schema=${f.storeSchema}`,
          '--queue-schema',
          f.queueSchema,
          '--agent',
          `constructor=${module}`,
          '--agent',
          `__proto__=${module}`,
        ],
        stop.signal,
      );
      let ended = false;
      void worker.done.finally(() => (ended = true));
      const runIds = [
        await f.queue.enqueue({ agent: 'constructor', input: 'charge it' }),
        await f.queue.enqueue({ agent: '__proto__', input: 'charge it' }),
      ];
      await waitFor(
        async () =>
          ended ||
          (await Promise.all(runIds.map((runId) => f.store.loadRun(runId)))).every(
            (run) => run?.status === 'completed',
          ),
        40_000,
        'runs completed',
      );
      stop.abort();
      expect({ code: await worker.done, stderr: worker.output.stderr }).toEqual({
        code: 0,
        stderr: expect.stringContaining('stopped\n'),
      });
      expect(worker.output.stderr).toMatch(/^worker .+: agents constructor, __proto__; 4 at a time;/);
      for (const runId of runIds) expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    } finally {
      delete process.env.LEDGER_SCHEMA;
      await f.close();
    }
  });

  it('with --key-file signs what it writes and verifies the runs it takes; without the key it runs nothing of them', async () => {
    const f = await openQueueFixture(schemas);
    const key = { id: 'ops-1', key: 'a record key of at least sixteen bytes' };
    const dir = mkdtempSync(join(tmpdir(), 'wuwe-worker-key-'));
    const keyFile = join(dir, 'key.json');
    writeFileSync(keyFile, JSON.stringify(key));
    process.env.LEDGER_SCHEMA = f.storeSchema;
    const keyed = await PostgresRunStore.open({ connectionString: f.url, schema: f.storeSchema, recordKey: key });
    const queue = await RunQueue.open({
      store: keyed,
      connectionString: f.url,
      schema: f.queueSchema,
      retryDelaySeconds: 0,
    });
    try {
      const args = ['worker', '--store', `${f.url}?schema=${f.storeSchema}`, '--queue-schema', f.queueSchema];
      const agent = ['--agent', `ledger=${join(__dirname, '../queue/fixtures/ledger-module.ts')}`];
      // Without the key: the signed run is not read, so no tool of it runs.
      const unkeyedStop = new AbortController();
      const unkeyed = cli([...args, ...agent], unkeyedStop.signal);
      const refusedRun = await queue.enqueue({ agent: 'ledger', input: 'charge it' });
      await waitFor(
        async () => unkeyed.output.stderr.includes('record_key_missing') || unkeyed.output.stderr.includes("'ops-1'"),
        40_000,
        'worker refused the signed run',
      );
      unkeyedStop.abort();
      expect(await unkeyed.done).toBe(0);
      expect(await f.ledger(refusedRun)).toEqual([]);
      // With the key: the run executes, every entry it wrote is signed with the key, and the record verifies.
      const stop = new AbortController();
      const worker = cli([...args, ...agent, '--key-file', keyFile], stop.signal);
      const runId = await queue.enqueue({ agent: 'ledger', input: 'charge it' });
      await waitFor(async () => (await keyed.loadRun(runId))?.status === 'completed', 40_000, 'keyed run completed');
      stop.abort();
      expect(await worker.done).toBe(0);
      expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
      const record = (await keyed.exportRun(runId))!;
      expect(record.chain.entries.length).toBeGreaterThan(4);
      expect(record.chain.entries.every((entry) => entry.keyId === 'ops-1')).toBe(true);
      expect(verifyRunRecord(record, { keys: key })).toMatchObject({ ok: true });
    } finally {
      delete process.env.LEDGER_SCHEMA;
      await queue.close();
      await keyed.close();
      await f.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a store that is not PostgreSQL, and a bad --concurrency, with usage errors (2) before loading anything', async () => {
    const sqlite = cli(['worker', '--store', 'sqlite:runs.db', '--agent', 'nowhere.js']);
    expect(await sqlite.done).toBe(2);
    expect(sqlite.output.stderr).toContain('wuwe worker needs --store postgres://');
    const concurrency = cli([
      'worker',
      '--store',
      'postgres://127.0.0.1:1/none',
      '--agent',
      'nowhere.js',
      '--concurrency',
      '0',
    ]);
    expect(await concurrency.done).toBe(2);
    expect(concurrency.output.stderr).toContain("--concurrency must be a positive integer, not '0'");
  });
});
