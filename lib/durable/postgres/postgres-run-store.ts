import type * as PgModule from 'pg';
import type { Pool, PoolClient } from 'pg';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import { ChatMessage } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import {
  AgentRunRecord,
  AgentRunStatus,
  ApprovalRecord,
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
  ToolOutputProjectionRecord,
} from '../agent-run-record';
import * as rules from '../record-rules';
import {
  AppendMessagesOptions,
  ApprovalDecision,
  ApprovalRequest,
  CallStartResult,
  CallWriteOptions,
  CreateRunOptions,
  RunStore,
  RunSummary,
  RunWriteOptions,
} from '../run-store';
import { RunStoreError } from '../run-store-error';
import { ReadingStatement, RunStoreStatementRows } from '../sql/run-store-statements';
import {
  approvalFromRow,
  callFromRow,
  chainedRecordFromRows,
  projectionFromRow,
  RunRow,
  summaryFromRow,
} from '../stored-rows';
import { ChainDraft } from '../chain/chain-digest';
import {
  approvalDraft,
  callDraft,
  messageDrafts,
  messagesReplacedDraft,
  projectionDraft,
  runDraft,
} from '../chain/chain-entities';
import { ChainedRunRecord, RecordChainEntry, RecordChainOptions } from '../chain/record-chain';
import { RecordChainer } from '../chain/record-chainer';
import { runOfRow } from '../chain/run-of-row';
import { hasErrorMarker } from '../../errors/error-marker';
import { mapPostgresError } from './postgres-errors';
import { inspectPostgresSchema, openPostgresSchema } from './postgres-schema';
import { checkReadableStore } from '../schema-version';
import { inPostgresTransaction } from './postgres-transaction';
import { PostgresStatements, postgresStatements } from './postgres-statements';

const POSTGRES_RUN_STORE = Symbol.for('wuwe.PostgresRunStore');

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

type Context = { runId?: string; callId?: string };

/**
 * A {@link RunStore} on PostgreSQL (`pg`), for several workers on several machines. Each operation is one
 * transaction; per-run writes lock the rows they change, leases are taken with one atomic
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired`. A connection lost mid-transaction rolls back on the
 * server and surfaces as `store_unavailable`. Tables are named `wuwe_*`; other tables in the schema are left alone.
 * `pg` is an optional peer dependency, loaded on the first `open` (`MissingDependencyError` when it is not installed).
 */
export class PostgresRunStore implements RunStore {
  /** Marks a `PostgresRunStore` of any copy of the package (see {@link PostgresRunStore.isInstance}). */
  readonly [POSTGRES_RUN_STORE] = true;

  /** True for a `PostgresRunStore` of any copy of the package: plug-in seams test with this, not `instanceof`. */
  static isInstance(value: unknown): value is PostgresRunStore {
    return hasErrorMarker(value, POSTGRES_RUN_STORE);
  }

  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly clock: () => number;
  private readonly statements: PostgresStatements;
  private readonly chainer: RecordChainer;
  private closed = false;

  private constructor(
    pool: Pool,
    ownsPool: boolean,
    quotedSchema: string,
    clock: () => number,
    chainer: RecordChainer,
  ) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    this.clock = clock;
    this.statements = postgresStatements(quotedSchema);
    this.chainer = chainer;
  }

  /**
   * Connects, then creates the schema or checks it. Throws `store_unavailable` when the server cannot be
   * reached, `store_corrupt` or `schema_version_mismatch` for a schema this build cannot use.
   */
  static async open(options: PostgresRunStoreOptions): Promise<PostgresRunStore> {
    const schema = options.schema ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
      throw new RunStoreError('record_invalid', `Invalid PostgreSQL schema name '${schema}'`);
    if (!options.pool && !options.connectionString)
      throw new RunStoreError('record_invalid', 'PostgresRunStore needs a pool or a connectionString');
    const chainer = new RecordChainer(options);
    const ownsPool = !options.pool;
    let pool = options.pool as Pool | undefined;
    if (!pool) {
      const pg = loadOptionalDependency<typeof PgModule>('pg', 'PostgresRunStore');
      pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
        connectionTimeoutMillis: rules.checkTimeout(options.connectTimeoutMs ?? 10_000, 'connectTimeoutMs'),
        ...(options.readOnly === true ? { options: '-c default_transaction_read_only=on' } : {}),
      });
      // An idle client whose server connection drops emits 'error' on the pool; without a listener the process dies.
      pool.on('error', () => undefined);
    }
    const store = new PostgresRunStore(pool, ownsPool, `"${schema}"`, options.clock ?? Date.now, chainer);
    try {
      if (options.readOnly === true)
        await store.transaction(
          {},
          async (client) =>
            checkReadableStore(await inspectPostgresSchema(client, schema, `"${schema}"`), `Schema ${schema}`),
          'BEGIN READ ONLY',
        );
      else
        await store.transaction({}, (client) =>
          openPostgresSchema(client, schema, `"${schema}"`, chainer, options.create !== false),
        );
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /** {@inheritDoc wuwe!RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    return this.createRunWith(options, async () => undefined);
  }

  /**
   * Creates a run as {@link PostgresRunStore.createRun} does and, in the same transaction, runs
   * `alsoInTransaction` with an executor on that transaction: both are stored, or neither (a throw rolls
   * the run back). `RunQueue` sends a run's first job this way, so no crash can leave a run without its job.
   * Errors of `alsoInTransaction` are mapped like the store's own (`store_unavailable` for a lost connection).
   */
  async createRunWith(
    options: CreateRunOptions,
    alsoInTransaction: (db: PostgresSqlExecutor) => Promise<void>,
  ): Promise<AgentRunRecord> {
    const run = rules.checkNewRun(options);
    const entries = await this.transaction({ runId: run.runId }, async (client) => {
      const inserted = await client.query(this.statements.insertRun, [
        run.runId,
        run.status,
        run.metadataJson,
        rules.isoTime(this.clock),
      ]);
      if (inserted.rowCount !== 1)
        throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
      await this.insertMessages(client, run.runId, 0, run.messageTexts);
      const row = (await this.select(client, 'selectRun', run.runId))[0];
      const chained = await this.appendChain(client, row, [
        runDraft('run_created', runOfRow(row)),
        ...messageDrafts(run.messageTexts, 0),
      ]);
      await alsoInTransaction(executorOn(client));
      return chained;
    });
    await this.chainer.notify(run.runId, entries);
    return (await this.loadRun(run.runId))!;
  }

  /** Runs `body` with an executor on one read-only transaction of the store's database. */
  async readWith<T>(body: (db: PostgresSqlExecutor) => Promise<T>): Promise<T> {
    return this.read({}, (client) => body(executorOn(client)));
  }

  /** {@inheritDoc wuwe!RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    const record = await this.exportRun(runId);
    return record && this.chainer.verified(record);
  }

  /** {@inheritDoc wuwe!RunStore.exportRun} */
  async exportRun(runId: string): Promise<ChainedRunRecord | undefined> {
    return this.read({ runId }, async (client) => {
      const run = (await this.select(client, 'selectRun', runId))[0];
      if (!run) return undefined;
      return chainedRecordFromRows(
        {
          run,
          messages: (await this.select(client, 'selectMessages', runId)).map((row) => row.message_json),
          calls: await this.select(client, 'selectCalls', runId),
          projections: await this.select(client, 'selectProjections', runId),
          approvals: await this.select(client, 'selectApprovals', runId),
          chain: await this.select(client, 'selectChain', runId),
          lease: (await this.select(client, 'selectLease', runId))[0],
        },
        true,
      );
    });
  }

  /** {@inheritDoc wuwe!RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    const rows =
      status === undefined ? await this.query({}, 'listRuns', []) : await this.query({}, 'listRunsByStatus', [status]);
    return (rows as RunStoreStatementRows['listRuns'][]).map(summaryFromRow);
  }

  /** {@inheritDoc wuwe!RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    const texts = rules.serializeMessages(runId, messages, options.origin ?? 'other');
    await this.write({ runId }, options, async (client, chain) => {
      await this.lockRun(client, runId);
      const first = Number((await this.select(client, 'lastMessageSeq', runId))[0].last);
      for (const projection of options.projections ?? [])
        await this.insertProjection(client, runId, projection, chain, texts, first);
      await this.insertMessages(client, runId, first, texts);
      chain.push(...messageDrafts(texts, first));
    });
  }

  /** {@inheritDoc wuwe!RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    const texts = rules.serializeMessages(runId, messages, 'other');
    await this.write({ runId }, options, async (client, chain) => {
      await this.lockRun(client, runId);
      await client.query(this.statements.deleteMessages, [runId]);
      await this.insertMessages(client, runId, 0, texts);
      chain.push(messagesReplacedDraft(texts.length), ...messageDrafts(texts, 0));
    });
  }

  /** {@inheritDoc wuwe!RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: RunWriteOptions): Promise<void> {
    rules.checkStatus(status);
    await this.write({ runId }, options, async (client, chain) => {
      await this.lockRun(client, runId);
      const pending = status === 'cancelled' ? await this.select(client, 'selectPendingApprovals', runId) : [];
      await client.query(this.statements.updateStatus, [runId, status]);
      if (status === 'cancelled') await client.query(this.statements.cancelPendingApprovals, [runId]);
      chain.push(runDraft('status_changed', runOfRow((await this.select(client, 'selectRun', runId))[0])));
      for (const row of pending)
        chain.push(approvalDraft('approval_cancelled', approvalFromRow({ ...row, state: 'cancelled' })));
    });
  }

  /** {@inheritDoc wuwe!RunStore.recordCallStarted} */
  async recordCallStarted(
    runId: string,
    identity: ToolCallIdentity,
    options?: RunWriteOptions,
  ): Promise<CallStartResult> {
    const argumentsJson = rules.checkIdentity(runId, identity);
    const turn = rules.checkTurn(identity.turn);
    return this.write({ runId, callId: identity.callId }, options, async (client, chain) => {
      const startedAt = rules.isoTime(this.clock);
      const values = [
        runId,
        identity.callId,
        identity.toolName,
        identity.idempotencyKey ?? null,
        identity.attempts,
        identity.argumentsSha256,
        argumentsJson,
        startedAt,
        turn,
      ];
      const inserted = (await client.query<RunStoreStatementRows['selectCall']>(this.statements.insertCall, values))
        .rows[0];
      if (inserted) {
        const call = callFromRow(inserted);
        chain.push(callDraft('call_started', call));
        return { created: true, call };
      }
      const existing =
        (await this.select(client, 'selectCall', runId, identity.callId, turn))[0] ??
        (identity.idempotencyKey !== undefined
          ? (await this.select(client, 'selectCallByKey', identity.idempotencyKey))[0]
          : undefined);
      if (!existing)
        throw new RunStoreError('store_unavailable', 'A conflicting call vanished during the insert; retry', {
          runId,
          callId: identity.callId,
        });
      const call = callFromRow(existing);
      rules.checkSameCall(runId, call, identity);
      return { created: false, call };
    });
  }

  /** {@inheritDoc wuwe!RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    rules.checkAttempts(attempts);
    const turn = rules.checkTurn(options?.turn);
    await this.write({ runId, callId }, options, async (client, chain) => {
      const row = (
        await this.lockedRows<RunStoreStatementRows['selectCall']>(client, 'lockCall', runId, callId, turn)
      )[0];
      if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
      if (row.status === 'admitted')
        throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
      await client.query(this.statements.raiseAttempts, [runId, callId, attempts, turn]);
      chain.push(
        callDraft('call_attempted', callFromRow((await this.select(client, 'selectCall', runId, callId, turn))[0])),
      );
    });
  }

  /** {@inheritDoc wuwe!RunStore.admitOutcome} */
  async admitOutcome(
    runId: string,
    callId: string,
    outcome: ToolOutcome,
    attempts: number,
    options?: CallWriteOptions,
  ): Promise<ToolCallRecord> {
    rules.checkAttempts(attempts);
    const turn = rules.checkTurn(options?.turn);
    const outcomeJson = rules.serializeOutcome(runId, callId, outcome);
    return this.write({ runId, callId }, options, async (client, chain) => {
      const row = (
        await this.lockedRows<RunStoreStatementRows['selectCall']>(client, 'lockCall', runId, callId, turn)
      )[0];
      if (rules.checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row);
      const updated = await client.query<RunStoreStatementRows['selectCall']>(this.statements.admitCall, [
        runId,
        callId,
        outcomeJson,
        attempts,
        rules.isoTime(this.clock),
        turn,
      ]);
      const call = callFromRow(updated.rows[0]);
      chain.push(callDraft('call_admitted', call));
      return call;
    });
  }

  /** {@inheritDoc wuwe!RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(
    idempotencyKey: string,
    argumentsSha256: string,
  ): Promise<ToolCallRecord | undefined> {
    const row = (await this.query({}, 'selectCallByKey', [idempotencyKey]))[0] as
      RunStoreStatementRows['selectCallByKey'] | undefined;
    if (!row) return undefined;
    const call = callFromRow(row);
    rules.checkIdempotentArguments(call, argumentsSha256);
    return call.status === 'admitted' ? call : undefined;
  }

  /** {@inheritDoc wuwe!RunStore.recordProjection} */
  async recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord> {
    return this.write({ runId, callId: projection.callId }, options, (client, chain) =>
      this.insertProjection(client, runId, projection, chain),
    );
  }

  /** {@inheritDoc wuwe!RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    const turn = rules.checkTurn(request.turn);
    return this.write({ runId, callId: request.callId }, options, async (client, chain) => {
      await this.lockRun(client, runId);
      const stored = (await this.select(client, 'selectApproval', runId, request.callId, turn))[0];
      rules.checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
      if (stored) return approvalFromRow(stored);
      const values = [
        runId,
        request.callId,
        request.toolName,
        request.argumentsSha256,
        rules.isoTime(this.clock),
        turn,
      ];
      const inserted = await client.query<RunStoreStatementRows['selectApproval']>(
        this.statements.insertApproval,
        values,
      );
      const approval = approvalFromRow(inserted.rows[0]);
      chain.push(approvalDraft('approval_requested', approval));
      return approval;
    });
  }

  /** {@inheritDoc wuwe!RunStore.decideApproval} */
  async decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord> {
    const turn = rules.checkTurn(options?.turn);
    return this.write({ runId, callId }, options, async (client, chain) => {
      const stored = (
        await this.lockedRows<RunStoreStatementRows['selectApproval']>(client, 'lockApproval', runId, callId, turn)
      )[0];
      if (stored === undefined)
        throw rules.approvalNotFound(runId, callId, turn, await this.select(client, 'selectApprovals', runId));
      if (!rules.checkDecision(runId, callId, stored && approvalFromRow(stored), decision))
        return approvalFromRow(stored);
      const state = decision.approved ? 'approved' : 'denied';
      const values = [
        runId,
        callId,
        state,
        rules.decider(decision),
        decision.reason ?? null,
        rules.isoTime(this.clock),
        turn,
        decision.argumentsSha256,
      ];
      const updated = await client.query<RunStoreStatementRows['selectApproval']>(
        this.statements.decideApproval,
        values,
      );
      const approval = approvalFromRow(updated.rows[0]);
      chain.push(approvalDraft('approval_decided', approval));
      return approval;
    });
  }

  /** {@inheritDoc wuwe!RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkId(workerId, 'workerId');
    rules.checkTtl(ttlMs);
    const now = this.clock();
    return this.transaction({ runId }, async (client) => {
      if ((await client.query(this.statements.acquireLease, [runId, workerId, now + ttlMs, now])).rowCount !== 1)
        return false;
      await client.query(this.statements.raiseFencingToken, [runId]);
      return true;
    });
  }

  /** {@inheritDoc wuwe!RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkTtl(ttlMs);
    if ((await this.query({ runId }, 'renewLease', [runId, workerId, this.clock() + ttlMs])).length === 1) return true;
    await this.requireRun(runId);
    return false;
  }

  /** {@inheritDoc wuwe!RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    if ((await this.query({ runId }, 'releaseLease', [runId, workerId])).length === 1) return true;
    await this.requireRun(runId);
    return false;
  }

  /** {@inheritDoc wuwe!RunStore.close} */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  /** Runs `body` in one transaction on one pooled connection (see {@link inPostgresTransaction}). */
  private async transaction<T>(
    context: Context,
    body: (client: PoolClient) => Promise<T>,
    begin = 'BEGIN',
  ): Promise<T> {
    this.checkOpen();
    return inPostgresTransaction(this.pool, context, body, begin);
  }

  /**
   * A transaction on an existing run that moves its `updated_at`; a missing run throws `run_not_found`. The
   * run row is updated last: its lock orders this write against a lease acquisition, and the fencing token
   * it returns is the current one, so a stale token rolls the whole write back (`lease_held`).
   */
  private async write<T>(
    context: Context & { runId: string },
    options: RunWriteOptions | undefined,
    body: (client: PoolClient, chain: ChainDraft[]) => Promise<T>,
  ): Promise<T> {
    const { result, entries } = await this.transaction(context, async (client) => {
      let result: T;
      const drafts: ChainDraft[] = [];
      try {
        result = await body(client, drafts);
      } catch (error) {
        if (error instanceof RunStoreError && error.code.endsWith('_not_found'))
          await this.requireRun(context.runId, client);
        throw error;
      }
      const touched = await client.query<{ fencing_token: string }>(this.statements.touchRun, [
        context.runId,
        rules.isoTime(this.clock),
      ]);
      if (touched.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', context);
      rules.checkFence(context.runId, touched.rows[0].fencing_token, options);
      // The run row is locked by the touch: chain appends of one run are serialized.
      const run = drafts.length === 0 ? undefined : (await this.select(client, 'selectRun', context.runId))[0];
      return { result, entries: run ? await this.appendChain(client, run, drafts) : [] };
    });
    await this.chainer.notify(context.runId, entries);
    return result;
  }

  /**
   * Appends the entries of `drafts` after the run's head, in the caller's transaction (the run row locked), and moves
   * the head.
   */
  private async appendChain(
    client: PoolClient,
    run: RunRow,
    drafts: readonly ChainDraft[],
  ): Promise<RecordChainEntry[]> {
    if (drafts.length === 0) return [];
    const entries = this.chainer.entries(run.run_id, { head: run.chain_head, length: run.chain_length }, drafts);
    for (const entry of entries) {
      await client.query(this.statements.insertChainEntry, [
        run.run_id,
        entry.index,
        entry.kind,
        entry.subject,
        entry.entitySha256,
        entry.source,
        entry.keyId ?? null,
        entry.digest,
      ]);
    }
    await client.query(this.statements.setChainHead, [
      run.run_id,
      entries[entries.length - 1].digest,
      Number(run.chain_length) + entries.length,
    ]);
    return entries;
  }

  /** Runs `body` in a read-only repeatable-read transaction: one consistent snapshot. */
  private async read<T>(context: Context, body: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(context, body, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }

  /** Throws `run_not_found` unless the run exists. */
  private async requireRun(runId: string, client?: PoolClient): Promise<void> {
    const rows = client
      ? await this.select(client, 'selectRun', runId)
      : await this.query({ runId }, 'selectRun', [runId]);
    if (rows.length === 0) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  private async lockRun(client: PoolClient, runId: string): Promise<void> {
    const locked = await client.query(this.statements.lockRun, [runId]);
    if (locked.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  /** Records a projection audit unless the same one is stored; throws as {@link RunStore.recordProjection}. */
  private async insertProjection(
    client: PoolClient,
    runId: string,
    projection: ToolOutputProjectionInput,
    chain: ChainDraft[],
    texts: readonly string[] = [],
    firstIndex = 0,
  ): Promise<ToolOutputProjectionRecord> {
    const turn = rules.checkTurn(projection.turn);
    const call = (
      await this.lockedRows<RunStoreStatementRows['selectCall']>(client, 'lockCall', runId, projection.callId, turn)
    )[0];
    const reportJson = rules.checkProjection(runId, projection, call && callFromRow(call));
    const stored = (await this.select(client, 'selectProjection', runId, projection.callId, turn))[0];
    if (stored) {
      rules.checkSameProjection(
        runId,
        { toolName: stored.tool_name, projectedSha256: stored.projected_sha256, reportJson: stored.report_json },
        projection,
        reportJson,
      );
      return projectionFromRow(stored, runId);
    }
    const content = rules.projectedContent(texts, firstIndex, projection.callId);
    const values = [
      runId,
      projection.callId,
      projection.toolName,
      projection.projectedSha256,
      reportJson,
      rules.isoTime(this.clock),
      turn,
      content.contentSha256 ?? null,
      content.messageIndex ?? null,
    ];
    const inserted = await client.query<RunStoreStatementRows['selectProjection']>(
      this.statements.insertProjection,
      values,
    );
    const audit = projectionFromRow(inserted.rows[0], runId);
    chain.push(projectionDraft(audit));
    return audit;
  }

  private async insertMessages(
    client: PoolClient,
    runId: string,
    after: number,
    texts: readonly string[],
  ): Promise<void> {
    if (texts.length === 0) return;
    await client.query(this.statements.insertMessages, [runId, after, texts]);
  }

  /** The rows of a reading statement, inside a transaction. */
  private async select<K extends ReadingStatement>(
    client: PoolClient,
    key: K,
    ...values: unknown[]
  ): Promise<RunStoreStatementRows[K][]> {
    return (await client.query<RunStoreStatementRows[K]>(this.statements[key], values)).rows;
  }

  /** The rows of a locking statement, locked until the transaction ends. */
  private async lockedRows<R extends object>(
    client: PoolClient,
    key: 'lockCall' | 'lockApproval',
    ...values: unknown[]
  ): Promise<R[]> {
    return (await client.query<R>(this.statements[key], values)).rows;
  }

  /** One statement outside an explicit transaction. */
  private async query(context: Context, key: keyof PostgresStatements, values: unknown[]): Promise<object[]> {
    this.checkOpen();
    try {
      return (await this.pool.query(this.statements[key], values)).rows as object[];
    } catch (error) {
      throw mapPostgresError(error, context);
    }
  }
}

/** An executor on the transaction `client` is in. */
function executorOn(client: PoolClient): PostgresSqlExecutor {
  return {
    executeSql: async (text, values) => ({ rows: (await client.query(text, values as unknown[])).rows as unknown[] }),
  };
}
