import { randomUUID } from 'node:crypto';
import type { AgentRunRecord } from '../durable/agent-run-record';
import { PostgresRunStore } from '../durable/postgres/postgres-run-store';
import type { RunStore } from '../durable/run-store';
import { QueueJobs } from './queue-jobs';
import { QueueStatements } from './queue-statements';
import { RunQueueError } from './run-queue-error';

/**
 * Whether the store is a `PostgresRunStore` on the queue's database: a probe row written through the
 * queue's connection (`jobs`) must be visible through the store's. Any failure means no. @internal
 */
export async function sharesDatabaseWithStore(
  store: RunStore,
  jobs: QueueJobs,
  statements: QueueStatements,
): Promise<boolean> {
  if (!PostgresRunStore.isInstance(store)) return false;
  const probe = `wuwe-probe:${randomUUID()}`;
  try {
    await jobs.sql(statements.requestCancellation, [probe]);
    const rows = await store.readWith((db) => db.executeSql(statements.cancelledAmong, [[probe]]));
    return rows.rows.length === 1;
  } catch {
    return false;
  } finally {
    await jobs.sql(statements.forgetCancellation, [probe]).catch(() => undefined);
  }
}

/** The stored record of `runId`; throws `run_not_found` when the store has none. @internal */
export async function loadQueuedRecord(store: RunStore, runId: string): Promise<AgentRunRecord> {
  const record = await store.loadRun(runId);
  if (record === undefined) throw new RunQueueError('run_not_found', `no stored run '${runId}'`, { runId });
  return record;
}
