import { RecordChainOptions } from '../chain/record-chain';

/** Options of {@link SqliteRunStore}. */
export interface SqliteRunStoreOptions extends RecordChainOptions {
  /** Database file; missing directories are created. `:memory:` keeps it in memory. @default '.wuwe/runs.db' */
  readonly path?: string;
  /**
   * How long a statement waits for another process's write lock before failing with `store_unavailable`. @default 5000
   */
  readonly busyTimeoutMs?: number;
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
  /**
   * Opens an existing store for reading only (SQLite's read-only mode): the file must exist and hold a run store
   * of this build's schema version; nothing is created, migrated or switched (no journal mode, no header
   * change), and writes fail with `store_unavailable`. Throws `store_empty` for a database without a run
   * store (a 0-byte file), `schema_version_mismatch` for an older one, and refuses foreign or damaged files as
   * a writable open does. @default false
   */
  readonly readOnly?: boolean;
  /**
   * How often a follower of a run's kept events (`followRun()`) reads the file again while it waits: SQLite does not
   * notify other processes of a write. Lower is more reads, higher is more latency. @default 100
   */
  readonly eventPollIntervalMs?: number;
  /**
   * False: a database without a run store is refused (`store_empty`) instead of given one; migration still happens.
   * @default true
   */
  readonly create?: boolean;
}
