import type BetterSqlite3 from 'better-sqlite3';
import { ChainDraft } from '../chain/chain-digest';
import { RecordChainEntry } from '../chain/record-chain';
import { RecordChainer } from '../chain/record-chainer';
import { RunWriteOptions } from '../run-store';
import { RunStoreError } from '../run-store-error';
import { checkFence } from '../rules/run-rules';
import { isoTime } from '../rules/value-rules';
import { chainEntryParameters, chainHeadParameters } from '../sql/run-store-parameters';
import { RunRow } from '../stored-rows';
import { mapSqliteError } from './sqlite-errors';
import { SqlitePreparedStatements } from './sqlite-prepared-statements';

/** The run and call an operation is about, named by the errors it throws. */
export type SqliteContext = { runId?: string; callId?: string };

/**
 * The database of a {@link SqliteRunStore} and the transactions its operations run in: immediate writes (the
 * write lock taken up front, so no upgrade can deadlock), deferred reads, and the fenced write of one run that
 * appends the chain entries its body drafts.
 */
export class SqliteRunSession {
  /** The store's statements, each prepared once. */
  readonly statements: SqlitePreparedStatements;
  private closed = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly clock: () => number,
    /** Chains the entries of writes and verifies loaded records. */
    readonly chainer: RecordChainer,
  ) {
    this.statements = new SqlitePreparedStatements(db);
  }

  /** The clock's reading, in milliseconds since the epoch. */
  nowMs(): number {
    return this.clock();
  }

  /** The clock's reading as ISO 8601 text. */
  now(): string {
    return isoTime(this.clock);
  }

  /** Runs `body` in an immediate transaction. */
  transaction<T>(context: SqliteContext, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).immediate();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  /** Runs `body` in a read transaction: one consistent snapshot. */
  read<T>(context: SqliteContext, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).deferred();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  /**
   * A transaction on an existing run that moves its `updated_at`. Throws `run_not_found`, or `lease_held` for a stale
   * fencing token. The chain entries `body` drafts are appended in the same transaction and announced after it
   * commits.
   */
  async write<T>(
    context: SqliteContext & { runId: string },
    options: RunWriteOptions | undefined,
    body: (chain: ChainDraft[]) => T,
  ): Promise<T> {
    const { result, entries } = this.transaction(context, () => {
      const run = this.statements.select('selectRun', context.runId)[0];
      if (!run) throw new RunStoreError('run_not_found', 'No such run', { runId: context.runId });
      checkFence(context.runId, run.fencing_token, options);
      const drafts: ChainDraft[] = [];
      const result = body(drafts);
      this.statements.run('touchRun', context.runId, this.now());
      return { result, entries: this.appendChain(run, drafts) };
    });
    await this.chainer.notify(context.runId, entries);
    return result;
  }

  /** A transaction on an existing run that leaves `updated_at` alone (lease operations). */
  lease<T>(runId: string, body: () => T): T {
    return this.transaction({ runId }, () => {
      if (!this.statements.exists('runExists', runId))
        throw new RunStoreError('run_not_found', 'No such run', { runId });
      return body();
    });
  }

  /** Appends the entries of `drafts` after the run's head, in the caller's transaction, and moves the head. */
  appendChain(run: RunRow, drafts: readonly ChainDraft[]): RecordChainEntry[] {
    if (drafts.length === 0) return [];
    const entries = this.chainer.entries(run.run_id, { head: run.chain_head, length: run.chain_length }, drafts);
    for (const entry of entries) this.statements.run('insertChainEntry', ...chainEntryParameters(run.run_id, entry));
    this.statements.run('setChainHead', ...chainHeadParameters(run.run_id, entries, run.chain_length));
    return entries;
  }

  /** Stores message texts after the message numbered `after`. */
  insertMessages(runId: string, after: number, texts: readonly string[]): void {
    texts.forEach((text, index) => this.statements.run('insertMessage', runId, after + index + 1, text));
  }

  /** Forgets the prepared statements and closes the database; later operations throw `store_closed`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }
}
