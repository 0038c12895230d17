/**
 * Counts what node-postgres clients of this process send to the server, by transaction: for the queue
 * floor of `npm run bench -- scale`, the write transactions, write statements and rows written on one
 * schema (a run store's), so that the floor's profile can be printed next to a wuwe run's. Wraps
 * `Client.prototype.query` (the promise and the callback forms; `Pool.query` goes through it) while
 * counting, and restores it after.
 */
import { Client } from 'pg';

/** One transaction that wrote to the counted schema: the tables of its writes, in order, and the rows they wrote. */
export interface CountedTransaction {
  readonly tables: readonly string[];
  readonly rows: number;
}

/** What {@link PgStatementCounter.stop} returns. */
export interface PgStatementCounts {
  /** Transactions with at least one write to the schema (a write outside a transaction counts as one). */
  readonly writeTransactions: readonly CountedTransaction[];
  /** Write statements (INSERT, UPDATE, DELETE) on the schema. */
  readonly writeStatements: number;
  /** Rows those statements wrote (their row counts). */
  readonly rowsWritten: number;
  /** Bytes of the parameters of those statements (their JSON text): the size of what was written. */
  readonly bytesWritten: number;
  /** Other statements on the schema (SELECT, SELECT ... FOR UPDATE), in or out of write transactions. */
  readonly readStatements: number;
  /** Transactions that touched the schema without writing to it. */
  readonly readTransactions: number;
  /** Every statement sent for the schema: the writes, the reads, and the BEGIN and COMMIT of its transactions. */
  readonly statements: number;
}

/** A statement whose text holds this marker (as an SQL comment) is not counted: the bench's own polls. */
export const UNCOUNTED = '/* uncounted */';

type QueryMethod = (this: Client, ...args: unknown[]) => unknown;

interface OpenTransaction {
  tables: string[];
  rows: number;
  touched: boolean;
  /** Opened with BEGIN (not a write in autocommit mode). */
  explicit: boolean;
}

/** The table a write statement writes, without its schema. */
function writtenTable(text: string): string | undefined {
  const match = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?\w+"?\.)?"?(\w+)/i.exec(
    text,
  );
  return match?.[1];
}

/** Counts the statements on `schema` between {@link start} and {@link stop}. */
export class PgStatementCounter {
  private original: QueryMethod | undefined;
  private readonly open = new WeakMap<Client, OpenTransaction>();
  private transactions: OpenTransaction[] = [];
  private writeStatements = 0;
  private rowsWritten = 0;
  private bytesWritten = 0;
  private readStatements = 0;
  private readTransactions = 0;

  constructor(private readonly schema: string) {}

  /** Starts counting (resets the counts). */
  start(): void {
    if (this.original !== undefined) return;
    this.transactions = [];
    this.writeStatements = this.rowsWritten = this.bytesWritten = this.readStatements = this.readTransactions = 0;
    const original = Client.prototype.query as unknown as QueryMethod;
    this.original = original;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const counter = this;
    (Client.prototype as unknown as { query: QueryMethod }).query = function (this: Client, ...args: unknown[]) {
      const onRows = counter.observe(this, args);
      if (onRows === undefined) return original.apply(this, args);
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as (error: unknown, result: unknown) => void;
        args[last] = (error: unknown, result: unknown) => {
          if (!error) onRows(result);
          callback(error, result);
        };
        return original.apply(this, args);
      }
      const result = original.apply(this, args);
      if (result instanceof Promise) result.then(onRows, () => undefined);
      return result;
    };
  }

  /** Stops counting and returns the counts. */
  stop(): PgStatementCounts {
    if (this.original !== undefined) (Client.prototype as unknown as { query: QueryMethod }).query = this.original;
    this.original = undefined;
    return {
      writeTransactions: this.transactions,
      writeStatements: this.writeStatements,
      rowsWritten: this.rowsWritten,
      bytesWritten: this.bytesWritten,
      readStatements: this.readStatements,
      readTransactions: this.readTransactions,
      statements:
        this.writeStatements +
        this.readStatements +
        2 * (this.readTransactions + this.transactions.filter((transaction) => transaction.explicit).length),
    };
  }

  /** Books one statement; returns what to do with its result (its row count), if anything. */
  private observe(client: Client, args: unknown[]): ((result: unknown) => void) | undefined {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: unknown } | null)?.text ?? '');
    if (typeof text !== 'string') return undefined;
    const values = Array.isArray(args[1]) ? args[1] : ((first as { values?: unknown } | null)?.values ?? []);
    const verb = text.trim().split(/\s+/)[0]?.toUpperCase();
    if (verb === 'BEGIN') {
      this.open.set(client, { tables: [], rows: 0, touched: false, explicit: true });
      return undefined;
    }
    if (verb === 'COMMIT' || verb === 'ROLLBACK') {
      const transaction = this.open.get(client);
      this.open.delete(client);
      if (transaction === undefined || verb === 'ROLLBACK') return undefined;
      if (transaction.tables.length > 0) this.transactions.push(transaction);
      else if (transaction.touched) this.readTransactions++;
      return undefined;
    }
    if (!text.includes(this.schema) || text.includes(UNCOUNTED)) return undefined;
    const transaction = this.open.get(client);
    if (transaction !== undefined) transaction.touched = true;
    const table = writtenTable(text);
    if (table === undefined) {
      this.readStatements++;
      return undefined;
    }
    this.writeStatements++;
    this.bytesWritten += JSON.stringify(values).length;
    const booked = transaction ?? { tables: [], rows: 0, touched: true, explicit: false };
    booked.tables.push(table);
    if (transaction === undefined) this.transactions.push(booked);
    return (result) => {
      const rows = (result as { rowCount?: number | null } | undefined)?.rowCount ?? 0;
      booked.rows += rows;
      this.rowsWritten += rows;
    };
  }
}

/** One line per write transaction (`tables (rows)`), for the report. */
export function describeTransactions(counts: PgStatementCounts): string[] {
  return counts.writeTransactions.map((transaction) => `${transaction.tables.join(' + ')} (${transaction.rows} rows)`);
}
