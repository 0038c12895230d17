import { RecordChainOptions } from '../chain/record-chain';

/**
 * A pool of `pg` (`new Pool(...)` from the `pg` package), described by what the store calls on it so
 * that these declarations compile without `pg`'s types.
 */
export interface PostgresPool {
  /** Checks a client out of the pool. */
  connect(): Promise<unknown>;
  /** Ends every client of the pool. */
  end(): Promise<void>;
}

/** Runs SQL on one transaction of the store's database (the shape pg-boss calls a `db`). */
export interface PostgresSqlExecutor {
  /** Runs one statement with `$1`-style parameters. */
  executeSql(text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

/** Options of {@link PostgresRunStore.open}: a pool or a connection string. */
export interface PostgresRunStoreOptions extends RecordChainOptions {
  /** A pool the caller owns: not ended by `close()`. Attach your own `'error'` listener to it. */
  readonly pool?: PostgresPool;
  /** Used when no `pool` is given; the store creates and owns a pool. */
  readonly connectionString?: string;
  /** PostgreSQL schema holding the `wuwe_*` tables; created when missing. @default 'public' */
  readonly schema?: string;
  /**
   * How long an owned pool waits for a connection (connecting, or a free pooled one) before `store_unavailable`.
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /** Size of an owned pool. @default 10 */
  readonly maxConnections?: number;
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
  /**
   * Opens an existing store for reading only: the schema is checked in a read-only transaction and never
   * created or migrated, and an owned pool's sessions are read-only (`default_transaction_read_only`), so writes
   * fail. Throws `store_empty` when the schema holds no run store, `schema_version_mismatch` for an older one.
   * @default false
   */
  readonly readOnly?: boolean;
  /**
   * False: a schema without a run store is refused (`store_empty`) instead of given one; migration still happens.
   * @default true
   */
  readonly create?: boolean;
}
