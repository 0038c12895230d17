import { AgentRunRecord } from './agent-run-record';
import { RunStore } from './run-store';
import { RunStoreError } from './run-store-error';
import { RunnerClock, startTimer, SYSTEM_CLOCK } from '../runner/runner-clock';

/** The system clock with timers that do not keep the process alive: a held lease alone must not. */
const UNREF_CLOCK: RunnerClock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (callback: () => void, delayMs: number): unknown =>
    (SYSTEM_CLOCK.setTimeout(callback, delayMs) as NodeJS.Timeout).unref(),
  clearTimeout: (handle: unknown) => SYSTEM_CLOCK.clearTimeout(handle),
});

/** Options of {@link withRunLease}. */
export interface RunLeaseOptions {
  /** This worker's id, unique among the workers sharing the store. */
  readonly workerId: string;
  /** Lease duration; a crashed worker's run can be taken over this long after its last renewal. */
  readonly ttlMs: number;
  /**
   * How often the lease is renewed while `work` runs (any length: one above 2^31-1 ms is waited in steps). @default
   * ttlMs / 3
   */
  readonly renewEveryMs?: number;
}

/** The lease `work` runs under: the token its writes carry, and the record as read once the lease was held. */
export interface HeldRunLease {
  /**
   * Pass it as `fencingToken` to every write; the store refuses it (`lease_held`) once another worker acquired the
   * lease.
   */
  readonly fencingToken: number;
  /** The run as read after the lease was acquired: decide from this read, not from one made before. */
  readonly record: AgentRunRecord;
  /**
   * Runs `write` as the last write of `work`: renewals stop before it, and when it answers true (it released the lease
   * itself, as `setStatus` with `releaseLease` does) the lease is not released again when `work` settles.
   */
  readonly lastWrite: (write: () => Promise<boolean>) => Promise<void>;
}

/**
 * Runs `work` while holding the run's lease. Throws `lease_held` (and runs nothing) when another worker's
 * lease is live. The lease is renewed every `renewEveryMs`; when a renewal fails (the lease was taken over or
 * the store is unreachable) the signal given to `work` is aborted with the reason, and `work` should stop
 * before its next effect (its writes, fenced by the token, are refused by the store anyway). The lease is
 * released when `work` settles. After acquiring, the run is read again and `work` gets that record with the
 * lease's fencing token.
 */
export async function withRunLease<T>(
  store: RunStore,
  runId: string,
  options: RunLeaseOptions,
  work: (signal: AbortSignal, lease: HeldRunLease) => Promise<T>,
): Promise<T> {
  if (!(await store.acquireLease(runId, options.workerId, options.ttlMs))) {
    throw new RunStoreError('lease_held', 'Another worker holds the lease of this run', { runId });
  }
  let record: AgentRunRecord | undefined;
  try {
    record = await store.loadRun(runId);
  } catch (error) {
    // A record that fails to load (tampered, invalid) is given up at once, not held until the lease expires.
    await store.releaseLease(runId, options.workerId).catch(() => undefined);
    throw error;
  }
  if (record?.lease?.workerId !== options.workerId) {
    throw new RunStoreError(
      record ? 'lease_held' : 'run_not_found',
      record ? 'The lease of this run was taken over by another worker' : 'No such run',
      { runId },
    );
  }
  return holdRunLease(store, runId, options, { fencingToken: record.lease.fencingToken, record }, work);
}

/**
 * Runs `work` under a lease `options.workerId` holds (its fencing token, and the run's record read or written under
 * it): acquired by {@link withRunLease}, or taken by `createRun` with `lease`. Renewed while `work` runs and released
 * when it settles, as there. @internal
 */
export async function holdRunLease<T>(
  store: RunStore,
  runId: string,
  options: RunLeaseOptions,
  taken: Pick<HeldRunLease, 'fencingToken' | 'record'>,
  work: (signal: AbortSignal, lease: HeldRunLease) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let renewing = Promise.resolve();
  const renew = async (): Promise<void> => {
    try {
      if (!(await store.renewLease(runId, options.workerId, options.ttlMs))) {
        controller.abort(
          new RunStoreError('lease_held', 'The lease of this run was taken over by another worker', { runId }),
        );
      }
    } catch (error) {
      controller.abort(error);
    }
  };
  // One renewal at a time, the next armed when the last is done; through startTimer, so a long interval (a lease of
  // months) is waited in steps instead of overflowing setTimeout into a renewal every millisecond.
  const everyMs = options.renewEveryMs ?? Math.max(1, Math.floor(options.ttlMs / 3));
  let cancelTimer = (): void => undefined;
  let stopped = false;
  const schedule = (): void => {
    cancelTimer = startTimer(
      UNREF_CLOCK,
      () => {
        if (stopped || controller.signal.aborted) return;
        renewing = renewing.then(renew).then(() => {
          if (!stopped && !controller.signal.aborted) schedule();
        });
      },
      everyMs,
    );
  };
  let released = false;
  const held: HeldRunLease = {
    ...taken,
    lastWrite: async (write) => {
      stopped = true;
      cancelTimer();
      await renewing;
      released = await write();
    },
  };
  schedule();
  try {
    return await work(controller.signal, held);
  } finally {
    stopped = true;
    cancelTimer();
    await renewing;
    if (!released && !controller.signal.aborted) await store.releaseLease(runId, options.workerId).catch(() => false);
  }
}
