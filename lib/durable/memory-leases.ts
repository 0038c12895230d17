import { MemoryRunRows } from './memory-run-rows';

// The leases of a MemoryRunStore, on a run's rows.

/** Takes the lease for `workerId` unless another worker's is live at `nowMs`; taking it raises the fencing token. */
export function acquireMemoryLease(rows: MemoryRunRows, workerId: string, ttlMs: number, nowMs: number): boolean {
  if (rows.lease && rows.lease.worker_id !== workerId && Number(rows.lease.expires_at_ms) > nowMs) return false;
  rows.lease = { worker_id: workerId, expires_at_ms: nowMs + ttlMs };
  rows.run.fencing_token = Number(rows.run.fencing_token) + 1;
  return true;
}

/** Extends the lease `workerId` holds to `expiresAtMs`; false when it holds none. */
export function renewMemoryLease(rows: MemoryRunRows, workerId: string, expiresAtMs: number): boolean {
  if (rows.lease?.worker_id !== workerId) return false;
  rows.lease = { worker_id: workerId, expires_at_ms: expiresAtMs };
  return true;
}

/** Releases the lease `workerId` holds; false when it holds none. */
export function releaseMemoryLease(rows: MemoryRunRows, workerId: string): boolean {
  if (rows.lease?.worker_id !== workerId) return false;
  delete rows.lease;
  return true;
}
