/**
 * An open `better-sqlite3` database (a `new Database(...)` instance), described by the members wuwe
 * reads first, so that wuwe's declarations compile where `better-sqlite3` and its types are not installed.
 */
export interface SqliteDatabaseHandle {
  /** True for an in-memory database. */
  readonly memory: boolean;
  /** True when opened read-only. */
  readonly readonly: boolean;
  /** Whether the connection is open. */
  readonly open: boolean;
  /** Runs a PRAGMA statement. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

/**
 * Where a module keeps its SQLite data: a file path (`':memory:'` for a private in-memory database) or an open
 * database.
 */
export type SqliteSource = string | SqliteDatabaseHandle;
