/**
 * Counts the commits of every better-sqlite3 connection in this process, by statement: a `COMMIT` of a
 * transaction that wrote (better-sqlite3's `db.transaction()` runs its `BEGIN` and `COMMIT` as prepared
 * statements), and each write run outside a transaction (SQLite commits it on its own). Read
 * transactions are counted apart. Used by the durable benches to report commits per run and per call.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** What {@link SqliteCommitCounter} has counted since its last {@link SqliteCommitCounter.reset}. */
export interface SqliteCommitCounts {
  /** Commits that wrote: transactions with a write, and writes in autocommit mode. */
  readonly writeCommits: number;
  /** Transactions that committed without a write. */
  readonly readTransactions: number;
  /** The tables each write commit wrote, in order (for a breakdown of what a run commits). */
  readonly commits: readonly (readonly string[])[];
}

interface StatementLike {
  readonly source: string;
  readonly reader: boolean;
  readonly database: { readonly inTransaction: boolean };
}

type StatementMethod = (this: StatementLike, ...args: unknown[]) => unknown;

/** The table a write statement writes (`INSERT INTO x`, `UPDATE x`, `DELETE FROM x`), for the breakdown. */
function writtenTable(source: string): string {
  const match = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+["`]?(\w+)/i.exec(source);
  return match?.[1] ?? source.trim().split(/\s+/).slice(0, 2).join(' ');
}

/** Wraps `run`/`get`/`all` of better-sqlite3's Statement prototype; {@link SqliteCommitCounter.counts} reads them. */
export class SqliteCommitCounter {
  private writeCommits = 0;
  private readTransactions = 0;
  private commits: string[][] = [];
  private open: string[] | undefined;

  constructor(Database: typeof BetterSqlite3) {
    const probe = new Database(':memory:');
    const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, StatementMethod>;
    probe.close();
    for (const name of ['run', 'get', 'all'] as const) {
      const original = prototype[name];
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the wrapper needs both `this`es
      const counter = this;
      prototype[name] = function (this: StatementLike, ...args: unknown[]): unknown {
        counter.observe(this);
        return original.apply(this, args);
      };
    }
  }

  private observe(statement: StatementLike): void {
    const source = statement.source.trimStart();
    const keyword = source.slice(0, 8).toUpperCase();
    if (keyword.startsWith('BEGIN')) {
      this.open = [];
      return;
    }
    if (keyword.startsWith('COMMIT')) {
      if (this.open !== undefined && this.open.length > 0) {
        this.writeCommits += 1;
        this.commits.push(this.open);
      } else this.readTransactions += 1;
      this.open = undefined;
      return;
    }
    if (keyword.startsWith('ROLLBACK') && !source.toUpperCase().startsWith('ROLLBACK TO')) {
      this.open = undefined;
      return;
    }
    if (statement.reader || keyword.startsWith('SAVEPOIN') || keyword.startsWith('RELEASE')) return;
    const table = writtenTable(source);
    if (statement.database.inTransaction && this.open !== undefined) this.open.push(table);
    else {
      this.writeCommits += 1;
      this.commits.push([table]);
    }
  }

  /** Starts counting from zero. */
  reset(): void {
    this.writeCommits = 0;
    this.readTransactions = 0;
    this.commits = [];
  }

  /** What was counted since the last reset. */
  counts(): SqliteCommitCounts {
    return { writeCommits: this.writeCommits, readTransactions: this.readTransactions, commits: this.commits };
  }
}
