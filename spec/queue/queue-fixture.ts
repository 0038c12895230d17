import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue, RunQueueOptions } from '../../lib/queue';
import { createLedger } from './ledger-agent';
import type { WorkerProcessConfig } from './queue-worker-process';

/** A fresh store schema, queue schema and ledger for one test, and what closes them. */
export interface QueueFixture {
  readonly url: string;
  readonly pool: Pool;
  readonly store: PostgresRunStore;
  readonly queue: RunQueue;
  readonly storeSchema: string;
  readonly queueSchema: string;
  /** A worker process's config on these schemas. */
  workerConfig(overrides?: Partial<WorkerProcessConfig>): WorkerProcessConfig;
  /** Ledger rows of a run, by tool. */
  ledger(runId?: string): Promise<{ run_id: string; call_id: string; tool: string }[]>;
  close(): Promise<void>;
}

/** Hands out fresh schema names and drops them afterwards (as TestSchemas does, without jest, for the benchmark). */
export interface FreshSchemas {
  fresh(): string;
  dropAll(): Promise<void>;
}

/** The test server's URL; throws when `WUWE_TEST_POSTGRES_URL` is unset. */
export function testPostgresUrl(): string {
  const url = process.env.WUWE_TEST_POSTGRES_URL;
  if (!url) throw new Error('WUWE_TEST_POSTGRES_URL is not set; run through .ci/postgres.sh');
  return url;
}

/** Schema names for one chaos run, dropped by `dropAll`. */
export function freshSchemas(): FreshSchemas {
  const names: string[] = [];
  return {
    fresh() {
      const name = `wuwe_q_${randomBytes(6).toString('hex')}`;
      names.push(name);
      return name;
    },
    async dropAll() {
      const pool = new Pool({ connectionString: testPostgresUrl(), max: 1 });
      try {
        for (const name of names.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}

/** Opens a fixture; `options` go to the test's own RunQueue. */
export async function openQueueFixture(
  schemas: FreshSchemas,
  options: Partial<RunQueueOptions> = {},
): Promise<QueueFixture> {
  const url = testPostgresUrl();
  const storeSchema = schemas.fresh();
  const queueSchema = schemas.fresh();
  const pool = new Pool({ connectionString: url, max: 4 });
  await createLedger(pool, storeSchema);
  const store = await PostgresRunStore.open({ connectionString: url, schema: storeSchema });
  const queue = await RunQueue.open({
    store,
    connectionString: url,
    schema: queueSchema,
    retryDelaySeconds: 0,
    superviseIntervalSeconds: 1,
    expireAfterSeconds: 4,
    maxConnections: 4,
    ...options,
  });
  return {
    url,
    pool,
    store,
    queue,
    storeSchema,
    queueSchema,
    workerConfig: (overrides = {}) => ({
      url,
      storeSchema,
      queueSchema,
      concurrency: 4,
      leaseTtlMs: 2000,
      expireAfterSeconds: 4,
      maxAttempts: 5,
      ...overrides,
    }),
    async ledger(runId) {
      const rows = await pool.query(
        `SELECT run_id, call_id, tool FROM "${storeSchema}".ledger ${runId ? 'WHERE run_id = $1' : ''} ORDER BY id`,
        runId ? [runId] : [],
      );
      return rows.rows as { run_id: string; call_id: string; tool: string }[];
    },
    async close() {
      await queue.close();
      await store.close();
      await pool.end();
    },
  };
}

/**
 * For a spec file: a 60 s test timeout, and `fixture(options)` that opens a fixture on fresh schemas;
 * every fixture is closed and every schema dropped after the file's tests.
 */
export function useQueueFixtures(): (options?: Partial<RunQueueOptions>) => Promise<QueueFixture> {
  jest.setTimeout(60_000);
  const schemas = freshSchemas();
  const fixtures: QueueFixture[] = [];
  afterAll(async () => {
    await Promise.all(fixtures.map((fixture) => fixture.close().catch(() => undefined)));
    await schemas.dropAll();
  });
  return async (options = {}) => {
    const opened = await openQueueFixture(schemas, options);
    fixtures.push(opened);
    return opened;
  };
}
