/**
 * A worker process for the queue specs and the scale benchmark: opens the store and the queue named by
 * the JSON in `WUWE_QUEUE_WORKER` (see {@link WorkerProcessConfig}), starts a worker with the ledger agent,
 * writes `ready` on stdout, and on SIGTERM stops gracefully (drains) and exits 0.
 */
import 'reflect-metadata';
import { Pool } from 'pg';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue, startWorker } from '../../lib/queue';
import { ledgerAgent } from './ledger-agent';

/** What a worker process is told. */
export interface WorkerProcessConfig {
  readonly url: string;
  /** Schema of the run store and of the ledger. */
  readonly storeSchema: string;
  /** Schema of the queue. */
  readonly queueSchema: string;
  readonly concurrency: number;
  readonly leaseTtlMs: number;
  readonly expireAfterSeconds: number;
  readonly maxAttempts: number;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.WUWE_QUEUE_WORKER ?? '{}') as WorkerProcessConfig;
  const pool = new Pool({ connectionString: config.url, max: 4 });
  pool.on('error', () => undefined);
  const store = await PostgresRunStore.open({
    connectionString: config.url,
    schema: config.storeSchema,
    maxConnections: config.concurrency + 2,
  });
  const queue = await RunQueue.open({
    store,
    connectionString: config.url,
    schema: config.queueSchema,
    maxAttempts: config.maxAttempts,
    expireAfterSeconds: config.expireAfterSeconds,
    retryDelaySeconds: 0,
    superviseIntervalSeconds: 1,
    maxConnections: 4,
  });
  const worker = startWorker({
    queue,
    agents: { ledger: ledgerAgent(pool, config.storeSchema) },
    concurrency: config.concurrency,
    leaseTtlMs: config.leaseTtlMs,
    pollIntervalMs: 100,
    cancelCheckIntervalMs: 200,
    onError: (error, runId) => process.stderr.write(`worker error${runId ? ` (${runId})` : ''}: ${String(error)}\n`),
  });
  process.once('SIGTERM', () => {
    void (async () => {
      const stopped = await worker.stop();
      await queue.close();
      await store.close();
      await pool.end();
      process.stdout.write(`stopped ${JSON.stringify(stopped)}\n`);
      process.exit(0);
    })();
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
