import type Database from 'better-sqlite3';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import type { SqliteSource } from './sqlite-source';

export type { SqliteSource } from './sqlite-source';

/** An opened database and whether the opener owns it (and so closes it). */
export interface OpenedSqliteDatabase {
  readonly database: Database.Database;
  readonly owned: boolean;
}

/**
 * Opens a SQLite source for a module. A path is opened (and owned); an open database is used as
 * given (and left open on close). File databases are switched to WAL journaling with a busy
 * timeout, so several modules and the durable store can share one file.
 *
 * @param feature - the class that opens it, named by the error when `better-sqlite3` is not installed.
 * @throws MissingDependencyError when a path is given and `better-sqlite3` is not installed.
 */
export function openSqliteDatabase(
  source: SqliteSource,
  busyTimeoutMs = 5000,
  feature = 'a SQLite module',
): OpenedSqliteDatabase {
  const owned = typeof source === 'string';
  const database =
    typeof source === 'string'
      ? new (loadOptionalDependency<typeof Database>('better-sqlite3', feature))(source)
      : (source as Database.Database);
  if (!database.memory && !database.readonly) {
    database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  }
  return { database, owned };
}
