import { AgentRunRecord } from './agent-run-record';
import { RunStore } from './run-store';
import { RunStoreError } from './run-store-error';

/** Options of {@link withRunLease}. */
export interface RunLeaseOptions {
  /** This worker's id, unique among the workers sharing the store. */
  readonly workerId: string;
  /** Lease duration; a crashed worker's run can be taken over this long after its last renewal. */
  readonly ttlMs: number;
  /** How often the lease is renewed while `work` runs. @default ttlMs / 3 */
  readonly renewEveryMs?: number;
}

/** The lease `work` runs under: the token its writes carry, and the record as read once the lease was held. */
export interface HeldRunLease {
  /** Pass it as `fencingToken` to every write; the store refuses it (`lease_held`) once another worker acquired the lease. */
  readonly fencingToken: number;
  /** The run as read after the lease was acquired: decide from this read, not from one made before. */
  readonly record: AgentRunRecord;
}

/**
 * Runs `work` while holding the run's lease. Throws `lease_held` (and runs nothing) when another worker's
 * lease is live. The lease is renewed every `renewEveryMs`; when a renewal fails (the lease was taken over or
 * the store is unreachable) the signal given to `work` is aborted with the reason, and `work` should stop
 * before its next effect (its writes, fenced by the token, are refused by the store anyway). The lease is
 * released when `work` settles. After acquiring, the run is read again and `work` gets that record with the
 * lease's fencing token.
 */
export async function withRunLease<T>(store: RunStore, runId: string, options: RunLeaseOptions, work: (signal: AbortSignal, lease: HeldRunLease) => Promise<T>): Promise<T> {
  if (!(await store.acquireLease(runId, options.workerId, options.ttlMs))) {
    throw new RunStoreError('lease_held', 'Another worker holds the lease of this run', { runId });
  }
  const record = await store.loadRun(runId);
  if (record?.lease?.workerId !== options.workerId) {
    throw new RunStoreError(record ? 'lease_held' : 'run_not_found', record ? 'The lease of this run was taken over by another worker' : 'No such run', { runId });
  }
  const held: HeldRunLease = { fencingToken: record.lease.fencingToken, record };
  const controller = new AbortController();
  let renewing = Promise.resolve();
  const renew = async (): Promise<void> => {
    try {
      if (!(await store.renewLease(runId, options.workerId, options.ttlMs))) {
        controller.abort(new RunStoreError('lease_held', 'The lease of this run was taken over by another worker', { runId }));
      }
    } catch (error) {
      controller.abort(error);
    }
  };
  const timer = setInterval(() => {
    if (!controller.signal.aborted) renewing = renewing.then(renew);
  }, options.renewEveryMs ?? Math.max(1, Math.floor(options.ttlMs / 3)));
  timer.unref();
  try {
    return await work(controller.signal, held);
  } finally {
    clearInterval(timer);
    await renewing;
    if (!controller.signal.aborted) await store.releaseLease(runId, options.workerId).catch(() => false);
  }
}
