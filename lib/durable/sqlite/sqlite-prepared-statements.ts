import type BetterSqlite3 from 'better-sqlite3';
import { ReadingStatement, RunStoreStatementRows } from '../sql/run-store-statements';
import { SQLITE_STATEMENTS, SqliteStatements } from './sqlite-statements';

/** The statements of {@link SQLITE_STATEMENTS} on one database, each prepared once on first use. */
export class SqlitePreparedStatements {
  private readonly prepared = new Map<keyof SqliteStatements, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  /** The rows of a reading statement. */
  select<K extends ReadingStatement>(key: K, ...values: unknown[]): RunStoreStatementRows[K][] {
    return this.statement(key).all(numbered(values)) as RunStoreStatementRows[K][];
  }

  /** Whether a statement returns a row. */
  exists(key: keyof SqliteStatements, ...values: unknown[]): boolean {
    return this.statement(key).get(numbered(values)) !== undefined;
  }

  /** Runs a writing statement; returns the number of rows it changed. */
  run(key: keyof SqliteStatements, ...values: unknown[]): number {
    return this.statement(key).run(numbered(values)).changes;
  }

  /** Forgets the prepared statements (before the database is closed). */
  clear(): void {
    this.prepared.clear();
  }

  private statement(key: keyof SqliteStatements): BetterSqlite3.Statement {
    let statement = this.prepared.get(key);
    if (!statement) {
      statement = this.db.prepare(SQLITE_STATEMENTS[key]);
      this.prepared.set(key, statement);
    }
    return statement;
  }
}

/** better-sqlite3 binds numbered parameters (`?1`) by name: `{ 1: first, 2: second, ... }`. */
function numbered(values: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(values.map((value, index) => [String(index + 1), value]));
}
