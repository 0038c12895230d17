import type { Pool, PoolClient } from 'pg';
import { mapPostgresError } from './postgres-errors';

/**
 * Runs `body` in one transaction on one pooled connection, opened with `begin`. On any failure the transaction
 * is rolled back and the error mapped to a {@link RunStoreError} with `context`; a connection that cannot even
 * roll back (lost) is destroyed rather than returned to the pool.
 */
export async function inPostgresTransaction<T>(
  pool: Pool,
  context: { runId?: string; callId?: string },
  body: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw mapPostgresError(error, context);
  }
  const ignore = (): void => undefined;
  client.on('error', ignore);
  let broken = false;
  try {
    await client.query(begin);
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw mapPostgresError(error, context);
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}
