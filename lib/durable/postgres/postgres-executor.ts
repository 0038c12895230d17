import type { PoolClient } from 'pg';
import { PostgresSqlExecutor } from './postgres-run-store-options';

/** An executor on the transaction `client` is in. @internal */
export function executorOn(client: PoolClient): PostgresSqlExecutor {
  return {
    executeSql: async (text, values) => ({ rows: (await client.query(text, values as unknown[])).rows as unknown[] }),
  };
}
