import type Database from 'better-sqlite3';
import { loadOptionalDependency } from '../../errors/optional-dependency';

/** Where a module keeps its SQLite data: a file path (`':memory:'` for a private in-memory database) or an open database. */
export type SqliteSource = string | Database.Database;

/** An opened database and whether the opener owns it (and so closes it). */
export interface OpenedSqliteDatabase {
  readonly database: Database.Database;
  readonly owned: boolean;
}

/**
 * Opens a SQLite source for a module. A path is opened (and owned); an open database is used as
 * given (and left open on close). File databases are switched to WAL journaling with a busy
 * timeout, so several modules and the durable store can share one file.
 */
export function openSqliteDatabase(source: SqliteSource, busyTimeoutMs = 5000): OpenedSqliteDatabase {
  const owned = typeof source === 'string';
  const database = typeof source === 'string' ? new (loadOptionalDependency<typeof Database>('better-sqlite3', 'SQLite modules'))(source) : source;
  if (!database.memory && !database.readonly) {
    database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  }
  return { database, owned };
}
