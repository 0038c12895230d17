import { MemoryRunStore } from '../../lib';
import { RunQueue } from '../../lib/queue';
import { describePostgres } from '../durable/postgres-env';
import { QueueFixture, testPostgresUrl, useQueueFixtures } from './queue-fixture';

const fixture = useQueueFixtures();

/** Makes every insert into the queue's job table fail, as a full disk or a lost connection would. */
async function breakJobInserts(f: QueueFixture): Promise<void> {
  await f.pool.query(
    `CREATE FUNCTION "${f.queueSchema}".refuse_job() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'job insert refused'; END $$`,
  );
  await f.pool.query(
    `CREATE TRIGGER refuse_job BEFORE INSERT ON "${f.queueSchema}".job FOR EACH ROW EXECUTE FUNCTION "${f.queueSchema}".refuse_job()`,
  );
}

async function jobsOf(f: QueueFixture, runId: string): Promise<number> {
  const rows = await f.pool.query(`SELECT count(*)::int AS n FROM "${f.queueSchema}".job WHERE data->>'runId' = $1`, [
    runId,
  ]);
  return (rows.rows[0] as { n: number }).n;
}

describePostgres('RunQueue.enqueue: the run and its first job are stored together', () => {
  it('uses one transaction when the store is a PostgresRunStore on the queue database, and records the queue in the run', async () => {
    const f = await fixture();
    expect(f.queue.atomicEnqueue).toBe(true);
    const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
    expect(await jobsOf(f, runId)).toBe(1);
    expect((await f.store.loadRun(runId))!.metadata).toMatchObject({
      queue: { agent: 'ledger', queueName: f.queue.options.name, queueSchema: f.queueSchema },
    });
  });

  it('a job insert that fails leaves no run behind (no run without a job), and the next enqueue works', async () => {
    const f = await fixture();
    await breakJobInserts(f);
    await expect(
      f.queue.enqueue({ agent: 'ledger', input: 'charge it', options: { runId: 'lost-job' } }),
    ).rejects.toThrow(/job insert refused/);
    expect(await f.store.loadRun('lost-job')).toBeUndefined();
    expect(await f.store.listRuns()).toEqual([]);
    await f.pool.query(`DROP TRIGGER refuse_job ON "${f.queueSchema}".job`);
    await f.queue.enqueue({ agent: 'ledger', input: 'charge it', options: { runId: 'lost-job' } });
    expect(await jobsOf(f, 'lost-job')).toBe(1);
    expect((await f.store.loadRun('lost-job'))!.status).toBe('running');
  });

  it('falls back to two steps for a store elsewhere: a failed send marks the run failed', async () => {
    const f = await fixture();
    const store = new MemoryRunStore();
    const queue = await RunQueue.open({
      store,
      connectionString: testPostgresUrl(),
      schema: f.queueSchema,
      name: 'other-runs',
      maxConnections: 2,
    });
    try {
      expect(queue.atomicEnqueue).toBe(false);
      await breakJobInserts(f);
      await expect(queue.enqueue({ agent: 'ledger', input: 'x', options: { runId: 'elsewhere' } })).rejects.toThrow(
        /job insert refused/,
      );
      expect((await store.loadRun('elsewhere'))!.status).toBe('failed');
    } finally {
      await queue.close();
    }
  });
});
