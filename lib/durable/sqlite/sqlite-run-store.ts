import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
import { mapSqliteError } from './sqlite-errors';
import { identifySqliteFile, openSqliteSchema } from './sqlite-schema';
import { checkReadableStore } from '../schema-version';
import { SqlitePreparedStatements } from './sqlite-prepared-statements';

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
   * False: a database without a run store is refused (`store_empty`) instead of given one; migration still happens.
   * @default true
   */
  readonly create?: boolean;
}

type Context = { runId?: string; callId?: string };

/**
 * A {@link RunStore} in one SQLite file (better-sqlite3, WAL journal): the embedded default. Several processes on
 * one machine may share the file; writes are serialized by SQLite and leases keep one worker per run.
 * Opening creates the schema or checks it, and throws a {@link RunStoreError} for a foreign, damaged or newer file.
 * `better-sqlite3` is an optional peer dependency, loaded when the first store is constructed
 * (`MissingDependencyError` when it is not installed).
 */
export class SqliteRunStore implements RunStore {
  /** The database file this store uses. */
  readonly path: string;
  private readonly db: BetterSqlite3.Database;
  private readonly clock: () => number;
  private readonly statements: SqlitePreparedStatements;
  private readonly chainer: RecordChainer;
  private closed = false;

  constructor(options: SqliteRunStoreOptions | string = {}) {
    const resolved = typeof options === 'string' ? { path: options } : options;
    this.path = resolved.path ?? '.wuwe/runs.db';
    this.clock = resolved.clock ?? Date.now;
    this.chainer = new RecordChainer(resolved);
    const Database = loadOptionalDependency<typeof BetterSqlite3>('better-sqlite3', 'SqliteRunStore');
    let db: BetterSqlite3.Database | undefined;
    try {
      const readOnly = resolved.readOnly === true;
      if (this.path !== ':memory:' && !readOnly) mkdirSync(dirname(this.path), { recursive: true });
      db = readOnly ? new Database(this.path, { readonly: true, fileMustExist: true }) : new Database(this.path);
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(resolved.busyTimeoutMs ?? 5000))}`);
      // A foreign or damaged file is refused before anything below writes to it.
      const found = identifySqliteFile(db);
      if (readOnly) checkReadableStore(found, 'The SQLite file');
      if (found.kind === 'empty' && resolved.create === false)
        throw new RunStoreError('store_empty', 'The SQLite file holds no wuwe run store');
    } catch (error) {
      db?.close();
      throw mapSqliteError(error);
    }
    if (resolved.readOnly !== true) this.prepareForWriting(db);
    this.db = db;
    this.statements = new SqlitePreparedStatements(db);
  }

  /** Switches a writable database to WAL with durable commits, and creates or migrates the schema. */
  private prepareForWriting(db: BetterSqlite3.Database): void {
    try {
      db.pragma('journal_mode = WAL');
      // Every commit reaches the disk: a started call or an admitted outcome survives power loss too.
      db.pragma('synchronous = FULL');
      // Off while the schema is created or migrated: a migration rebuilds tables others refer to, and dropping
      // the old one must not cascade (better-sqlite3 turns foreign keys on by default).
      db.pragma('foreign_keys = OFF');
      openSqliteSchema(db, this.chainer);
      db.pragma('foreign_keys = ON');
    } catch (error) {
      db.close();
      throw mapSqliteError(error);
    }
  }

  /** Opens a store; the same as the constructor, for symmetry with {@link durable/postgres!PostgresRunStore.open}. */
  static async open(options: SqliteRunStoreOptions | string = {}): Promise<SqliteRunStore> {
    return new SqliteRunStore(options);
  }

  /** {@inheritDoc wuwe!RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    const run = rules.checkNewRun(options);
    const entries = this.transaction({ runId: run.runId }, () => {
      if (this.statements.exists('runExists', run.runId))
        throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
      this.statements.run('insertRun', run.runId, run.status, run.metadataJson, rules.isoTime(this.clock));
      this.insertMessages(run.runId, 0, run.messageTexts);
      const row = this.statements.select('selectRun', run.runId)[0];
      return this.appendChain(row, [runDraft('run_created', runOfRow(row)), ...messageDrafts(run.messageTexts, 0)]);
    });
    await this.chainer.notify(run.runId, entries);
    return (await this.loadRun(run.runId))!;
  }

  /** {@inheritDoc wuwe!RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    const record = await this.exportRun(runId);
    return record && this.chainer.verified(record);
  }

  /** {@inheritDoc wuwe!RunStore.exportRun} */
  async exportRun(runId: string): Promise<ChainedRunRecord | undefined> {
    return this.read({ runId }, () => {
      const run = this.statements.select('selectRun', runId)[0];
      if (!run) return undefined;
      return chainedRecordFromRows(
        {
          run,
          messages: this.statements.select('selectMessages', runId).map((row) => row.message_json),
          calls: this.statements.select('selectCalls', runId),
          projections: this.statements.select('selectProjections', runId),
          approvals: this.statements.select('selectApprovals', runId),
          chain: this.statements.select('selectChain', runId),
          lease: this.statements.select('selectLease', runId)[0],
        },
        true,
      );
    });
  }

  /** {@inheritDoc wuwe!RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    return this.read({}, () =>
      (status === undefined
        ? this.statements.select('listRuns')
        : this.statements.select('listRunsByStatus', status)
      ).map(summaryFromRow),
    );
  }

  /** {@inheritDoc wuwe!RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    const texts = rules.serializeMessages(runId, messages, options.origin ?? 'other');
    await this.write({ runId }, options, (chain) => {
      const first = Number(this.statements.select('lastMessageSeq', runId)[0].last);
      for (const projection of options.projections ?? []) this.insertProjection(runId, projection, chain, texts, first);
      this.insertMessages(runId, first, texts);
      chain.push(...messageDrafts(texts, first));
    });
  }

  /** {@inheritDoc wuwe!RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    const texts = rules.serializeMessages(runId, messages, 'other');
    await this.write({ runId }, options, (chain) => {
      this.statements.run('deleteMessages', runId);
      this.insertMessages(runId, 0, texts);
      chain.push(messagesReplacedDraft(texts.length), ...messageDrafts(texts, 0));
    });
  }

  /** {@inheritDoc wuwe!RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: RunWriteOptions): Promise<void> {
    rules.checkStatus(status);
    await this.write({ runId }, options, (chain) => {
      const pending = status === 'cancelled' ? this.statements.select('selectPendingApprovals', runId) : [];
      this.statements.run('updateStatus', runId, status);
      if (status === 'cancelled') this.statements.run('cancelPendingApprovals', runId);
      chain.push(runDraft('status_changed', runOfRow(this.statements.select('selectRun', runId)[0])));
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
    return this.write({ runId, callId: identity.callId }, options, (chain) => {
      const existing =
        this.statements.select('selectCall', runId, identity.callId, turn)[0] ??
        (identity.idempotencyKey !== undefined
          ? this.statements.select('selectCallByKey', identity.idempotencyKey)[0]
          : undefined);
      if (existing) {
        const call = callFromRow(existing);
        rules.checkSameCall(runId, call, identity);
        return { created: false, call };
      }
      const startedAt = rules.isoTime(this.clock);
      this.statements.run(
        'insertCall',
        runId,
        identity.callId,
        identity.toolName,
        identity.idempotencyKey ?? null,
        identity.attempts,
        identity.argumentsSha256,
        argumentsJson,
        startedAt,
        turn,
      );
      const call = callFromRow(this.statements.select('selectCall', runId, identity.callId, turn)[0]);
      chain.push(callDraft('call_started', call));
      return { created: true, call };
    });
  }

  /** {@inheritDoc wuwe!RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    rules.checkAttempts(attempts);
    const turn = rules.checkTurn(options?.turn);
    await this.write({ runId, callId }, options, (chain) => {
      const row = this.statements.select('selectCall', runId, callId, turn)[0];
      if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
      if (row.status === 'admitted')
        throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
      this.statements.run('raiseAttempts', runId, callId, attempts, turn);
      chain.push(
        callDraft('call_attempted', callFromRow(this.statements.select('selectCall', runId, callId, turn)[0])),
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
    return this.write({ runId, callId }, options, (chain) => {
      const row = this.statements.select('selectCall', runId, callId, turn)[0];
      if (rules.checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row);
      this.statements.run('admitCall', runId, callId, outcomeJson, attempts, rules.isoTime(this.clock), turn);
      const call = callFromRow(this.statements.select('selectCall', runId, callId, turn)[0]);
      chain.push(callDraft('call_admitted', call));
      return call;
    });
  }

  /** {@inheritDoc wuwe!RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(
    idempotencyKey: string,
    argumentsSha256: string,
  ): Promise<ToolCallRecord | undefined> {
    const row = this.read({}, () => this.statements.select('selectCallByKey', idempotencyKey)[0]);
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
    return this.write({ runId, callId: projection.callId }, options, (chain) =>
      this.insertProjection(runId, projection, chain),
    );
  }

  /** {@inheritDoc wuwe!RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    const turn = rules.checkTurn(request.turn);
    return this.write({ runId, callId: request.callId }, options, (chain) => {
      const stored = this.statements.select('selectApproval', runId, request.callId, turn)[0];
      rules.checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
      if (stored) return approvalFromRow(stored);
      this.statements.run(
        'insertApproval',
        runId,
        request.callId,
        request.toolName,
        request.argumentsSha256,
        rules.isoTime(this.clock),
        turn,
      );
      const approval = approvalFromRow(this.statements.select('selectApproval', runId, request.callId, turn)[0]);
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
    return this.write({ runId, callId }, options, (chain) => {
      const stored = this.statements.select('selectApproval', runId, callId, turn)[0];
      if (stored === undefined)
        throw rules.approvalNotFound(runId, callId, turn, this.statements.select('selectApprovals', runId));
      if (!rules.checkDecision(runId, callId, stored && approvalFromRow(stored), decision))
        return approvalFromRow(stored);
      const state = decision.approved ? 'approved' : 'denied';
      this.statements.run(
        'decideApproval',
        runId,
        callId,
        state,
        rules.decider(decision),
        decision.reason ?? null,
        rules.isoTime(this.clock),
        turn,
        decision.argumentsSha256,
      );
      const approval = approvalFromRow(this.statements.select('selectApproval', runId, callId, turn)[0]);
      chain.push(approvalDraft('approval_decided', approval));
      return approval;
    });
  }

  /** {@inheritDoc wuwe!RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkId(workerId, 'workerId');
    rules.checkTtl(ttlMs);
    return this.lease(runId, () => {
      const now = this.clock();
      if (this.statements.run('acquireLease', runId, workerId, now + ttlMs, now) !== 1) return false;
      this.statements.run('raiseFencingToken', runId);
      return true;
    });
  }

  /** {@inheritDoc wuwe!RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkTtl(ttlMs);
    return this.lease(runId, () => this.statements.run('renewLease', runId, workerId, this.clock() + ttlMs) === 1);
  }

  /** {@inheritDoc wuwe!RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    return this.lease(runId, () => this.statements.run('releaseLease', runId, workerId) === 1);
  }

  /** {@inheritDoc wuwe!RunStore.close} */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  /** Runs `body` in an immediate transaction: the write lock is taken up front, so no upgrade can deadlock. */
  private transaction<T>(context: Context, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).immediate();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  /**
   * A transaction on an existing run that moves its `updated_at`. Throws `run_not_found`, or `lease_held` for a stale
   * fencing token.
   */
  private async write<T>(
    context: Context & { runId: string },
    options: RunWriteOptions | undefined,
    body: (chain: ChainDraft[]) => T,
  ): Promise<T> {
    const { result, entries } = this.transaction(context, () => {
      const run = this.statements.select('selectRun', context.runId)[0];
      if (!run) throw new RunStoreError('run_not_found', 'No such run', { runId: context.runId });
      rules.checkFence(context.runId, run.fencing_token, options);
      const drafts: ChainDraft[] = [];
      const result = body(drafts);
      this.statements.run('touchRun', context.runId, rules.isoTime(this.clock));
      return { result, entries: this.appendChain(run, drafts) };
    });
    await this.chainer.notify(context.runId, entries);
    return result;
  }

  /** Appends the entries of `drafts` after the run's head, in the caller's transaction, and moves the head. */
  private appendChain(run: RunRow, drafts: readonly ChainDraft[]): RecordChainEntry[] {
    if (drafts.length === 0) return [];
    const entries = this.chainer.entries(run.run_id, { head: run.chain_head, length: run.chain_length }, drafts);
    for (const entry of entries)
      this.statements.run(
        'insertChainEntry',
        run.run_id,
        entry.index,
        entry.kind,
        entry.subject,
        entry.entitySha256,
        entry.source,
        entry.keyId ?? null,
        entry.digest,
      );
    this.statements.run(
      'setChainHead',
      run.run_id,
      entries[entries.length - 1].digest,
      Number(run.chain_length) + entries.length,
    );
    return entries;
  }

  /** A transaction on an existing run that leaves `updated_at` alone (lease operations). */
  private lease<T>(runId: string, body: () => T): T {
    return this.transaction({ runId }, () => {
      this.requireRun(runId);
      return body();
    });
  }

  /** Runs `body` in a read transaction: one consistent snapshot. */
  private read<T>(context: Context, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).deferred();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }

  private requireRun(runId: string): void {
    if (!this.statements.exists('runExists', runId)) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  /** Records a projection audit unless the same one is stored; throws as {@link RunStore.recordProjection}. */
  private insertProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    chain: ChainDraft[],
    texts: readonly string[] = [],
    firstIndex = 0,
  ): ToolOutputProjectionRecord {
    const turn = rules.checkTurn(projection.turn);
    const call = this.statements.select('selectCall', runId, projection.callId, turn)[0];
    const reportJson = rules.checkProjection(runId, projection, call && callFromRow(call));
    const stored = this.statements.select('selectProjection', runId, projection.callId, turn)[0];
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
    this.statements.run(
      'insertProjection',
      runId,
      projection.callId,
      projection.toolName,
      projection.projectedSha256,
      reportJson,
      rules.isoTime(this.clock),
      turn,
      content.contentSha256 ?? null,
      content.messageIndex ?? null,
    );
    const audit = projectionFromRow(
      this.statements.select('selectProjection', runId, projection.callId, turn)[0],
      runId,
    );
    chain.push(projectionDraft(audit));
    return audit;
  }

  private insertMessages(runId: string, after: number, texts: readonly string[]): void {
    texts.forEach((text, index) => this.statements.run('insertMessage', runId, after + index + 1, text));
  }
}
