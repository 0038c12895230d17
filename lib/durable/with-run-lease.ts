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

/**
 * Runs `work` while holding the run's lease. Throws `lease_held` (and runs nothing) when another worker's
 * lease is live. The lease is renewed every `renewEveryMs`; when a renewal fails (the lease was taken over or
 * the store is unreachable) the signal given to `work` is aborted with the reason, and `work` should stop
 * before its next effect. The lease is released when `work` settles.
 */
export async function withRunLease<T>(store: RunStore, runId: string, options: RunLeaseOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!(await store.acquireLease(runId, options.workerId, options.ttlMs))) {
    throw new RunStoreError('lease_held', 'Another worker holds the lease of this run', { runId });
  }
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
    return await work(controller.signal);
  } finally {
    clearInterval(timer);
    await renewing;
    if (!controller.signal.aborted) await store.releaseLease(runId, options.workerId).catch(() => false);
  }
}
