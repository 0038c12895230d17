import 'reflect-metadata';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunQueue, startWorker } from '../../lib/queue';
async function main() {
  const url = process.env.WUWE_TEST_POSTGRES_URL!;
  const mode = process.argv[2];
  const store = await PostgresRunStore.open({ connectionString: url, schema: 'exp_store' });
  const queue = await RunQueue.open({ store, connectionString: url, schema: 'exp_queue' });
  const worker = startWorker({ queue, agents: { a: { runner: { resume: async () => ({ stopReason: 'end_turn', steps: 1 }) as never } } }, pollIntervalMs: 50 });
  await new Promise((r) => setTimeout(r, 300));
  console.log('stop', await worker.stop());
  if (mode !== 'stop-only') { await queue.close(); console.log('queue closed'); }
  if (mode === 'all') { await store.close(); console.log('store closed'); }
  const h = (process as any)._getActiveHandles(); console.log('handles', h.map((x: any) => x.constructor.name));
}
void main();
