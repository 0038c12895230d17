import type { RecordKeyOption } from '../durable/chain/record-chain';
import { PostgresRunStore } from '../durable/postgres/postgres-run-store';
import { QueueWorker, QueueWorkerOptions, QueueWorkerStopResult, startWorker } from './queue-worker';
import { RunQueue } from './run-queue';
import type { RunQueueOptions } from './run-queue-options';

/** Options of {@link openQueueWorker}: where the store and the queue live, and the worker's own options. */
export interface OpenQueueWorkerOptions extends Omit<QueueWorkerOptions, 'queue'> {
  /** The PostgreSQL database of the store and of the queue. */
  readonly connectionString: string;
  /** PostgreSQL schema of the store's tables. @default 'public' */
  readonly storeSchema?: string;
  /** Connections of the store's pool. @default concurrency + 2 */
  readonly storeMaxConnections?: number;
  /** How long the store's pool waits for a connection. @default 10000 */
  readonly storeConnectTimeoutMs?: number;
  /**
   * The store's record keys (`recordKey` of {@link PostgresRunStore.open}): the worker signs what it writes and
   * verifies every run it takes with them, so a keyed store's runs are executed only when their MACs hold.
   * @default none: a plain chain
   */
  readonly recordKey?: RecordKeyOption;
  /** Options of the queue ({@link RunQueue.open}) but its store and database. */
  readonly queue?: Omit<RunQueueOptions, 'store' | 'connectionString'>;
}

/** A worker that opened its own store and queue: `stop()` drains, then closes both. */
export interface OwnedQueueWorker extends QueueWorker {
  /** The queue it opened (to enqueue from the same process, or to read dead letters). */
  readonly queue: RunQueue;
  /** The store it opened. */
  readonly store: PostgresRunStore;
  /**
   * Drains as {@link QueueWorker.stop} does, then closes the queue and the store this worker opened,
   * whatever the drain gave: nothing it opened keeps the process alive afterwards, so a process that
   * only ran this worker exits on its own. A run still executing at `timeoutMs` loses its store (its
   * job is taken up by another worker after its lease). A second call waits for the first.
   */
  stop(options?: { readonly timeoutMs?: number }): Promise<QueueWorkerStopResult>;
}

/**
 * Opens a `PostgresRunStore` and a {@link RunQueue} on one database and starts a worker on them, as
 * `wuwe worker` does: the way to embed a worker in a process of one's own. What it opened is closed
 * again when opening fails, and by `stop()`. Throws what `PostgresRunStore.open`, `RunQueue.open` and
 * {@link startWorker} throw.
 */
export async function openQueueWorker(options: OpenQueueWorkerOptions): Promise<OwnedQueueWorker> {
  const {
    connectionString,
    storeSchema,
    storeMaxConnections,
    storeConnectTimeoutMs,
    recordKey,
    queue: queueOptions,
    ...workerOptions
  } = options;
  const store = await PostgresRunStore.open({
    connectionString,
    maxConnections: storeMaxConnections ?? (workerOptions.concurrency ?? 4) + 2,
    ...(storeSchema === undefined ? {} : { schema: storeSchema }),
    ...(storeConnectTimeoutMs === undefined ? {} : { connectTimeoutMs: storeConnectTimeoutMs }),
    ...(recordKey === undefined ? {} : { recordKey }),
  });
  let queue: RunQueue | undefined;
  let worker: QueueWorker;
  try {
    queue = await RunQueue.open({ ...queueOptions, store, connectionString });
    worker = startWorker({ ...workerOptions, queue });
  } catch (error) {
    await queue?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
  const openedQueue = queue;
  let stopping: Promise<QueueWorkerStopResult> | undefined;
  const stopAndClose = async (stopOptions?: { readonly timeoutMs?: number }): Promise<QueueWorkerStopResult> => {
    try {
      return await worker.stop(stopOptions);
    } finally {
      await openedQueue.close().catch((error: unknown) => workerOptions.onError?.(error));
      await store.close().catch((error: unknown) => workerOptions.onError?.(error));
    }
  };
  return {
    workerId: worker.workerId,
    queue: openedQueue,
    store,
    runningRunIds: () => worker.runningRunIds(),
    stop: (stopOptions) => (stopping ??= stopAndClose(stopOptions)),
  };
}
