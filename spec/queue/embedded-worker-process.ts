/**
 * A process that embeds a worker, for the spec of how a worker lets its process exit. Reads
 * `{ url, storeSchema, queueSchema }` from the JSON in `WUWE_EMBEDDED_WORKER`; `WUWE_EMBEDDED_MODE` says how
 * it is embedded: `owned` (`openQueueWorker`, and on SIGTERM only `worker.stop()`) or `started` (its own
 * store and queue, `startWorker`, and on SIGTERM `worker.stop()`, `queue.close()`, `store.close()`). It
 * writes `ready` once started and `stopped <counts>` once stopped, and never calls `process.exit`: the
 * process must end on its own.
 */
import 'reflect-metadata';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { openQueueWorker, QueueWorker, RunQueue, startWorker } from '../../lib/queue';
import { CallCounts, countingAgent } from './counting-agent';

interface EmbeddedWorkerConfig {
  readonly url: string;
  readonly storeSchema: string;
  readonly queueSchema: string;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.WUWE_EMBEDDED_WORKER ?? '{}') as EmbeddedWorkerConfig;
  const counts: CallCounts = { resumes: 0, toolCalls: 0 };
  const agents = { counting: countingAgent(counts) };
  let stop: () => Promise<unknown>;
  if (process.env.WUWE_EMBEDDED_MODE === 'owned') {
    const worker = await openQueueWorker({
      connectionString: config.url,
      storeSchema: config.storeSchema,
      queue: { schema: config.queueSchema },
      agents,
      pollIntervalMs: 50,
    });
    stop = () => worker.stop();
  } else {
    const store = await PostgresRunStore.open({ connectionString: config.url, schema: config.storeSchema });
    const queue = await RunQueue.open({ store, connectionString: config.url, schema: config.queueSchema });
    const worker: QueueWorker = startWorker({ queue, agents, pollIntervalMs: 50 });
    stop = async () => {
      await worker.stop();
      await queue.close();
      await store.close();
    };
  }
  process.once('SIGTERM', () => {
    void stop().then(() => process.stdout.write(`stopped ${JSON.stringify(counts)}\n`));
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
