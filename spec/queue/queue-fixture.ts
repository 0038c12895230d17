import { Pool } from 'pg';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue, RunQueueOptions } from '../../lib/queue';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
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

/** Opens a fixture; `options` go to the test's own RunQueue. */
export async function openQueueFixture(schemas: TestSchemas, options: Partial<RunQueueOptions> = {}): Promise<QueueFixture> {
  const url = requirePostgresUrl();
  const storeSchema = schemas.fresh();
  const queueSchema = schemas.fresh();
  const pool = new Pool({ connectionString: url, max: 4 });
  await createLedger(pool, storeSchema);
  const store = await PostgresRunStore.open({ connectionString: url, schema: storeSchema });
  const queue = await RunQueue.open({ store, connectionString: url, schema: queueSchema, retryDelaySeconds: 0, superviseIntervalSeconds: 1, expireAfterSeconds: 4, maxConnections: 4, ...options });
  return {
    url,
    pool,
    store,
    queue,
    storeSchema,
    queueSchema,
    workerConfig: (overrides = {}) => ({ url, storeSchema, queueSchema, concurrency: 4, leaseTtlMs: 2000, expireAfterSeconds: 4, maxAttempts: 5, ...overrides }),
    async ledger(runId) {
      const rows = await pool.query(`SELECT run_id, call_id, tool FROM "${storeSchema}".ledger ${runId ? 'WHERE run_id = $1' : ''} ORDER BY id`, runId ? [runId] : []);
      return rows.rows as { run_id: string; call_id: string; tool: string }[];
    },
    async close() {
      await queue.close();
      await store.close();
      await pool.end();
    },
  };
}
