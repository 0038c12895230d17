/**
 * A queue worker process for the UI stream sample's queued runs: opens the store and queue named by
 * `WUWE_QUEUE_WORKER` (see WorkerProcessConfig) and executes the sample's agent with its events kept. The model's
 * answer waits until the file `WUWE_SAMPLE_HOLD_FILE` exists (when set), so a spec can reload the page mid-run. On
 * SIGTERM it stops, writes `executions <json>` (how often each tool ran here) and exits 0.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue } from '../../lib/queue';
import { buildRunner, executions } from '../../samples/08-ui-stream/agent';
import { startChatWorker } from '../../samples/08-ui-stream/run-drivers';
import type { WorkerProcessConfig } from '../queue/queue-worker-process';

/** Resolves once `path` exists (polling every 20 ms). */
async function untilExists(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.WUWE_QUEUE_WORKER ?? '{}') as WorkerProcessConfig;
  const hold = process.env.WUWE_SAMPLE_HOLD_FILE;
  const store = await PostgresRunStore.open({ connectionString: config.url, schema: config.storeSchema });
  const queue = await RunQueue.open({
    store,
    connectionString: config.url,
    schema: config.queueSchema,
    retryDelaySeconds: 0,
    superviseIntervalSeconds: 1,
    expireAfterSeconds: config.expireAfterSeconds,
    maxConnections: 4,
  });
  const runner = buildRunner(hold === undefined ? {} : { beforeAnswer: () => untilExists(hold) });
  const worker = startChatWorker(queue, runner);
  process.once('SIGTERM', () => {
    void (async () => {
      await worker.stop();
      await queue.close();
      await store.close();
      process.stdout.write(`executions ${JSON.stringify(executions)}\n`);
      process.exit(0);
    })();
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
