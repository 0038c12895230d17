import { checkId, checkTtl } from '../rules/value-rules';
import { PostgresRunSession } from './postgres-run-session';

// The leases of a PostgreSQL run store: one atomic `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired` each.

/** {@link RunStore.acquireLease} on PostgreSQL: a lease taken raises the run's fencing token. */
export async function acquirePostgresLease(
  session: PostgresRunSession,
  runId: string,
  workerId: string,
  ttlMs: number,
): Promise<boolean> {
  checkId(workerId, 'workerId');
  checkTtl(ttlMs);
  const now = session.nowMs();
  return session.transaction({ runId }, async (client) => {
    if ((await client.query(session.statements.acquireLease, [runId, workerId, now + ttlMs, now])).rowCount !== 1)
      return false;
    await client.query(session.statements.raiseFencingToken, [runId]);
    return true;
  });
}

/** {@link RunStore.renewLease} on PostgreSQL. */
export async function renewPostgresLease(
  session: PostgresRunSession,
  runId: string,
  workerId: string,
  ttlMs: number,
): Promise<boolean> {
  checkTtl(ttlMs);
  if ((await session.query({ runId }, 'renewLease', [runId, workerId, session.nowMs() + ttlMs])).length === 1)
    return true;
  await session.requireRun(runId);
  return false;
}

/** {@link RunStore.releaseLease} on PostgreSQL. */
export async function releasePostgresLease(
  session: PostgresRunSession,
  runId: string,
  workerId: string,
): Promise<boolean> {
  if ((await session.query({ runId }, 'releaseLease', [runId, workerId])).length === 1) return true;
  await session.requireRun(runId);
  return false;
}
