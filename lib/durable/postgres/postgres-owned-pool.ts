import type * as PgModule from 'pg';
import type { Pool } from 'pg';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import { checkTimeout } from '../rules/value-rules';
import { PostgresRunStoreOptions } from './postgres-run-store-options';

/**
 * The pool a store creates and owns when it is given no `pool`: on `connectionString`, sized and timed by the
 * options, read-only sessions for a `readOnly` store. Loads `pg` (`MissingDependencyError` when it is not installed).
 */
export function ownedPostgresPool(options: PostgresRunStoreOptions): Pool {
  const pg = loadOptionalDependency<typeof PgModule>('pg', 'PostgresRunStore');
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: checkTimeout(options.connectTimeoutMs ?? 10_000, 'connectTimeoutMs'),
    ...(options.readOnly === true ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle client whose server connection drops emits 'error' on the pool; without a listener the process dies.
  pool.on('error', () => undefined);
  return pool;
}
