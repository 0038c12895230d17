import { RunStore, AgentRunRecord } from '..';
import { RunQueue } from '../queue';
import { queuedRunMetadataOf } from '../queue/queued-run-metadata';
import { DEFAULT_RUN_QUEUE_NAME, DEFAULT_RUN_QUEUE_SCHEMA } from '../queue/run-queue-options';
import { parseStoreSpec } from './open-store';

/** What deciding the last pending approval of a queued run did about its resume. */
export interface QueuedResume {
  /** The job queue of the run. */
  readonly queueName: string;
  /** Whether a resume job was sent. */
  readonly enqueued: boolean;
  /** Why no resume job could be sent (the decision itself is stored). */
  readonly error?: string;
}

/**
 * For a run a `RunQueue` started (`metadata.queue.agent`) that waits on no approval any more, enqueues
 * its resume on the run's own queue (`metadata.queue.queueName` / `queueSchema`, the queue's defaults
 * for runs stored before those were recorded), through the PostgreSQL database of the store.
 * `undefined` for a run no queue started.
 */
export async function enqueueResumeOfQueuedRun(
  store: RunStore,
  storeSpec: string,
  cwd: string,
  record: AgentRunRecord,
): Promise<QueuedResume | undefined> {
  const queued = queuedRunMetadataOf(record);
  if (queued === undefined) return undefined;
  const queueName = queued.queueName ?? DEFAULT_RUN_QUEUE_NAME;
  const spec = parseStoreSpec(storeSpec, cwd);
  if (spec.kind !== 'postgres')
    return {
      queueName,
      enqueued: false,
      error: 'the run was queued, but the store is not PostgreSQL, where its queue lives',
    };
  let queue: RunQueue | undefined;
  try {
    queue = await RunQueue.open({
      store,
      connectionString: spec.connectionString,
      maxConnections: 2,
      name: queueName,
      schema: queued.queueSchema ?? DEFAULT_RUN_QUEUE_SCHEMA,
    });
    return { queueName, enqueued: await queue.resumeAfterApproval(record.runId) };
  } catch (error) {
    return { queueName, enqueued: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await queue?.close().catch(() => undefined);
  }
}
