import type { Pool, PoolClient } from 'pg';
import { ChainDraft } from '../chain/chain-digest';
import { RecordChainEntry } from '../chain/record-chain';
import { RecordChainer } from '../chain/record-chainer';
import { RunWriteOptions } from '../run-store';
import { RunStoreError } from '../run-store-error';
import { checkFence } from '../rules/run-rules';
import { isoTime } from '../rules/value-rules';
import { chainHeadParameters } from '../sql/run-store-parameters';
import { ReadingStatement, RunStoreStatementRows } from '../sql/run-store-statements';
import { RunRow } from '../stored-rows';
import { mapPostgresError } from './postgres-errors';
import { PostgresStatements, postgresStatements } from './postgres-statements';
import { inPostgresTransaction } from './postgres-transaction';

/** The run and call an operation is about, named by the errors it throws. */
export type PostgresContext = { runId?: string; callId?: string };

/**
 * The pool of a {@link PostgresRunStore} and the transactions its operations run in: plain, read-only snapshot, and
 * the fenced write of one run that appends the chain entries its body drafts.
 */
export class PostgresRunSession {
  /** The statements of the store's schema. */
  readonly statements: PostgresStatements;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    quotedSchema: string,
    private readonly clock: () => number,
    /** Chains the entries of writes and verifies loaded records. */
    readonly chainer: RecordChainer,
  ) {
    this.statements = postgresStatements(quotedSchema);
  }

  /** The clock's reading, in milliseconds since the epoch. */
  nowMs(): number {
    return this.clock();
  }

  /** The clock's reading as ISO 8601 text. */
  now(): string {
    return isoTime(this.clock);
  }

  /** Runs `body` in one transaction on one pooled connection (see {@link inPostgresTransaction}). */
  async transaction<T>(
    context: PostgresContext,
    body: (client: PoolClient) => Promise<T>,
    begin = 'BEGIN',
  ): Promise<T> {
    this.checkOpen();
    return inPostgresTransaction(this.pool, context, body, begin);
  }

  /** Runs `body` in a read-only repeatable-read transaction: one consistent snapshot. */
  async read<T>(context: PostgresContext, body: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(context, body, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /**
   * A transaction on an existing run that moves its `updated_at`; a missing run throws `run_not_found`. The
   * run row is updated last: its lock orders this write against a lease acquisition, and the fencing token
   * it returns is the current one, so a stale token rolls the whole write back (`lease_held`). The chain entries
   * `body` drafts are appended in the same transaction and announced after it commits.
   */
  async write<T>(
    context: PostgresContext & { runId: string },
    options: RunWriteOptions | undefined,
    body: (client: PoolClient, chain: ChainDraft[]) => Promise<T>,
  ): Promise<T> {
    const { result, entries } = await this.transaction(context, async (client) => {
      let result: T;
      const drafts: ChainDraft[] = [];
      try {
        result = await body(client, drafts);
      } catch (error) {
        if (RunStoreError.isInstance(error) && error.code.endsWith('_not_found'))
          await this.requireRun(context.runId, client);
        throw error;
      }
      const touched = await client.query<ChainHeadRow & Pick<RunRow, 'fencing_token'>>(this.statements.touchRun, [
        context.runId,
        this.now(),
      ]);
      if (touched.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', context);
      const [run] = touched.rows;
      checkFence(context.runId, run.fencing_token, options);
      // The run row is locked by the touch: chain appends of one run are serialized, after the head it returned.
      return { result, entries: await this.appendChain(client, context.runId, run, drafts) };
    });
    await this.chainer.notify(context.runId, entries);
    return result;
  }

  /**
   * Appends the entries of `drafts` after the run's head (`head`, read with the run row locked), in the caller's
   * transaction, and moves the head: one statement.
   */
  async appendChain(
    client: PoolClient,
    runId: string,
    head: ChainHeadRow,
    drafts: readonly ChainDraft[],
  ): Promise<RecordChainEntry[]> {
    if (drafts.length === 0) return [];
    const entries = this.chainer.entries(runId, { head: head.chain_head, length: head.chain_length }, drafts);
    await client.query(this.statements.appendChainEntries, [
      runId,
      entries.map((entry) => entry.index),
      entries.map((entry) => entry.kind),
      entries.map((entry) => entry.subject),
      entries.map((entry) => entry.entitySha256),
      entries.map((entry) => entry.source),
      entries.map((entry) => entry.keyId ?? null),
      entries.map((entry) => entry.digest),
      ...chainHeadParameters(runId, entries, head.chain_length).slice(1),
    ]);
    return entries;
  }

  /** Throws `run_not_found` unless the run exists. */
  async requireRun(runId: string, client?: PoolClient): Promise<void> {
    const rows = client
      ? await this.select(client, 'selectRun', runId)
      : await this.query({ runId }, 'selectRun', [runId]);
    if (rows.length === 0) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  /** Locks the run row until the transaction ends; throws `run_not_found` unless the run exists. */
  async lockRun(client: PoolClient, runId: string): Promise<void> {
    const locked = await client.query(this.statements.lockRun, [runId]);
    if (locked.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  /** Stores message texts after the message numbered `after`. */
  async insertMessages(client: PoolClient, runId: string, after: number, texts: readonly string[]): Promise<void> {
    if (texts.length === 0) return;
    await client.query(this.statements.insertMessages, [runId, after, texts]);
  }

  /** The rows of a reading statement, inside a transaction. */
  async select<K extends ReadingStatement>(
    client: PoolClient,
    key: K,
    ...values: unknown[]
  ): Promise<RunStoreStatementRows[K][]> {
    return (await client.query<RunStoreStatementRows[K]>(this.statements[key], values)).rows;
  }

  /** The rows of a locking statement, locked until the transaction ends. */
  async lockedRows<K extends 'lockCall' | 'lockApproval'>(
    client: PoolClient,
    key: K,
    ...values: unknown[]
  ): Promise<(K extends 'lockCall' ? RunStoreStatementRows['selectCall'] : RunStoreStatementRows['selectApproval'])[]> {
    return (await client.query(this.statements[key], values)).rows;
  }

  /** One statement outside an explicit transaction. */
  async query(context: PostgresContext, key: keyof PostgresStatements, values: unknown[]): Promise<object[]> {
    this.checkOpen();
    try {
      return (await this.pool.query(this.statements[key], values)).rows as object[];
    } catch (error) {
      throw mapPostgresError(error, context);
    }
  }

  /** Ends an owned pool; later operations throw `store_closed`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }
}

/** The chain head of a run row: the digest of its last entry and how many entries it has. */
export type ChainHeadRow = Pick<RunRow, 'chain_head' | 'chain_length'>;
