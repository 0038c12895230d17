/**
 * A worker process for the lease race: opens a store, waits for 'go', tries to lease the run, and executes
 * its one tool call only when it holds the lease and the store says the call was not started before.
 * Each execution appends a line to the counter file. With `crash`, it exits right after executing,
 * before admitting the outcome (a crash with the effect's outcome unknown).
 */
import { appendFileSync } from 'node:fs';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunStore, toolText } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { identity } from './run-store-suite';

interface WorkerOptions {
  kind: 'sqlite' | 'postgres';
  location: string;
  schema: string;
  runId: string;
  workerId: string;
  counterFile: string;
  ttlMs: number;
  crash: boolean;
}

/** What a worker reports to the parent. */
export interface WorkerReport {
  workerId: string;
  leased: boolean;
  executed: boolean;
  callStatus?: string;
}

async function openStore(options: WorkerOptions): Promise<RunStore> {
  return options.kind === 'sqlite'
    ? new SqliteRunStore(options.location)
    : PostgresRunStore.open({ connectionString: options.location, schema: options.schema, maxConnections: 2 });
}

async function work(options: WorkerOptions): Promise<WorkerReport> {
  const store = await openStore(options);
  try {
    await new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      process.send!('ready');
    });
    const leased = await store.acquireLease(options.runId, options.workerId, options.ttlMs);
    if (!leased) return { workerId: options.workerId, leased, executed: false };
    const start = await store.recordCallStarted(
      options.runId,
      identity('call-1', { orderId: 42 }, { toolName: 'refund_order' }),
    );
    if (!start.created) return { workerId: options.workerId, leased, executed: false, callStatus: start.call.status };
    appendFileSync(options.counterFile, `${options.workerId}\n`);
    if (options.crash) process.exit(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.admitOutcome(options.runId, 'call-1', toolText('refunded'), 1);
    await store.releaseLease(options.runId, options.workerId);
    return { workerId: options.workerId, leased, executed: true };
  } finally {
    await store.close();
  }
}

const options = JSON.parse(process.argv[2]) as WorkerOptions;
work(options).then(
  (report) => process.send!(report, () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
