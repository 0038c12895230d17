import { join } from 'node:path';
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
