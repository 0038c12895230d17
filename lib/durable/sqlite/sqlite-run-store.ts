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
import { ChainedRunRecord } from '../chain/record-chain';
import { RecordChainer } from '../chain/record-chainer';
import { checkId, checkTtl } from '../rules/value-rules';
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
  SetStatusOptions,
  SetStatusResult,
} from '../run-store';
import { RunStoreError } from '../run-store-error';
import { checkReadableStore } from '../schema-version';
import { decideSqliteApproval, requestSqliteApproval } from './sqlite-approval-writes';
import {
  admitSqliteOutcome,
  findSqliteAdmittedByKey,
  recordSqliteAttempt,
  startSqliteCall,
} from './sqlite-call-writes';
import { mapSqliteError } from './sqlite-errors';
import { insertSqliteProjection } from './sqlite-projection-writes';
import type { BudgetKeyStore } from '../budget/budget-keys';
import { SqliteBudgetKeys, SQLITE_BUDGET_KEY_TABLES } from './sqlite-budget-keys';
import { SqliteRunStoreOptions } from './sqlite-run-store-options';
import { SqliteRunSession } from './sqlite-run-session';
import { listSqliteRuns, readSqliteRun } from './sqlite-run-reads';
import { appendSqliteMessages, createSqliteRun, saveSqliteMessages, setSqliteStatus } from './sqlite-run-writes';
import { identifySqliteFile, openSqliteSchema } from './sqlite-schema';
import type { JsonObject } from '../../outcome/json-value';
import type {
  AppendRunEventsOptions,
  KeptRunEvent,
  ReadRunEventsOptions,
  RunEventLog,
} from '../run-events/run-event-log';
import { DEFAULT_SQLITE_EVENT_POLL_INTERVAL_MS, SqliteRunEvents } from './sqlite-run-events';

/**
 * A {@link RunStore} in one SQLite file (better-sqlite3, WAL journal): the embedded default. Several processes on
 * one machine may share the file; writes are serialized by SQLite and leases keep one worker per run.
 * Opening creates the schema or checks it, and throws a {@link RunStoreError} for a foreign, damaged or newer file.
 * `better-sqlite3` is an optional peer dependency, loaded when the first store is constructed
 * (`MissingDependencyError` when it is not installed). The SQL of each concern lives beside it:
 * `sqlite-run-reads.ts`, `sqlite-run-writes.ts`, `sqlite-call-writes.ts`, `sqlite-approval-writes.ts`,
 * `sqlite-projection-writes.ts`, `sqlite-schema.ts`.
 */
export class SqliteRunStore implements RunStore, RunEventLog {
  /** The database file this store uses. */
  readonly path: string;
  /** The budgets of keys shared by runs (tables `wuwe_budget_*`; see {@link wuwe!RunStore.budgetKeys}). */
  readonly budgetKeys: BudgetKeyStore;
  private readonly session: SqliteRunSession;
  private readonly events: SqliteRunEvents;

  constructor(options: SqliteRunStoreOptions | string = {}) {
    const resolved = typeof options === 'string' ? { path: options } : options;
    this.path = resolved.path ?? '.wuwe/runs.db';
    const chainer = new RecordChainer(resolved);
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
    if (resolved.readOnly !== true) prepareForWriting(db, chainer);
    this.session = new SqliteRunSession(db, resolved.clock ?? Date.now, chainer);
    const pollIntervalMs = resolved.eventPollIntervalMs ?? DEFAULT_SQLITE_EVENT_POLL_INTERVAL_MS;
    if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 1) {
      this.session.close();
      throw new RunStoreError('record_invalid', `eventPollIntervalMs must be >= 1, got ${String(pollIntervalMs)}`);
    }
    this.events = new SqliteRunEvents(db, this.session, pollIntervalMs);
    this.budgetKeys = new SqliteBudgetKeys(db, this.session);
  }

  /** Opens a store; the same as the constructor, for symmetry with {@link durable/postgres!PostgresRunStore.open}. */
  static async open(options: SqliteRunStoreOptions | string = {}): Promise<SqliteRunStore> {
    return new SqliteRunStore(options);
  }

  /** {@inheritDoc wuwe!RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    return createSqliteRun(this.session, options);
  }

  /** {@inheritDoc wuwe!RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    const record = await this.exportRun(runId);
    return record && this.session.chainer.verified(record);
  }

  /** {@inheritDoc wuwe!RunStore.exportRun} */
  async exportRun(runId: string): Promise<ChainedRunRecord | undefined> {
    return readSqliteRun(this.session, runId);
  }

  /** {@inheritDoc durable!RunEventLog.appendRunEvents} */
  async appendRunEvents(
    runId: string,
    events: readonly JsonObject[],
    options: AppendRunEventsOptions,
  ): Promise<number> {
    return this.events.append(runId, events, options);
  }

  /** {@inheritDoc durable!RunEventLog.readRunEvents} */
  async readRunEvents(runId: string, options?: ReadRunEventsOptions): Promise<readonly KeptRunEvent[]> {
    return this.events.read(runId, options);
  }

  /**
   * `waitForRunEvents` of {@link durable!RunEventLog.waitForRunEvents}: polls every `eventPollIntervalMs`.
   */
  async waitForRunEvents(_runId: string, _after: number, signal?: AbortSignal): Promise<void> {
    return this.events.wait(signal);
  }

  /** {@inheritDoc wuwe!RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    return listSqliteRuns(this.session, status);
  }

  /** {@inheritDoc wuwe!RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    await appendSqliteMessages(this.session, runId, messages, options);
  }

  /** {@inheritDoc wuwe!RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    await saveSqliteMessages(this.session, runId, messages, options);
  }

  /** {@inheritDoc wuwe!RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: SetStatusOptions): Promise<SetStatusResult> {
    return setSqliteStatus(this.session, runId, status, options);
  }

  /** {@inheritDoc wuwe!RunStore.recordCallStarted} */
  async recordCallStarted(
    runId: string,
    identity: ToolCallIdentity,
    options?: RunWriteOptions,
  ): Promise<CallStartResult> {
    return startSqliteCall(this.session, runId, identity, options);
  }

  /** {@inheritDoc wuwe!RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    await recordSqliteAttempt(this.session, runId, callId, attempts, options);
  }

  /** {@inheritDoc wuwe!RunStore.admitOutcome} */
  async admitOutcome(
    runId: string,
    callId: string,
    outcome: ToolOutcome,
    attempts: number,
    options?: CallWriteOptions,
  ): Promise<ToolCallRecord> {
    return admitSqliteOutcome(this.session, runId, callId, outcome, attempts, options);
  }

  /** {@inheritDoc wuwe!RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(
    idempotencyKey: string,
    argumentsSha256: string,
  ): Promise<ToolCallRecord | undefined> {
    return findSqliteAdmittedByKey(this.session, idempotencyKey, argumentsSha256);
  }

  /** {@inheritDoc wuwe!RunStore.recordProjection} */
  async recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord> {
    return this.session.write({ runId, callId: projection.callId }, options, (chain) =>
      insertSqliteProjection(this.session, runId, projection, chain),
    );
  }

  /** {@inheritDoc wuwe!RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    return requestSqliteApproval(this.session, runId, request, options);
  }

  /** {@inheritDoc wuwe!RunStore.decideApproval} */
  async decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord> {
    return decideSqliteApproval(this.session, runId, callId, decision, options);
  }

  /** {@inheritDoc wuwe!RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    checkId(workerId, 'workerId');
    checkTtl(ttlMs);
    const statements = this.session.statements;
    return this.session.lease(runId, () => {
      const now = this.session.nowMs();
      if (statements.run('acquireLease', runId, workerId, now + ttlMs, now) !== 1) return false;
      statements.run('raiseFencingToken', runId);
      return true;
    });
  }

  /** {@inheritDoc wuwe!RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return this.session.lease(
      runId,
      () => this.session.statements.run('renewLease', runId, workerId, this.session.nowMs() + ttlMs) === 1,
    );
  }

  /** {@inheritDoc wuwe!RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    return this.session.lease(runId, () => this.session.statements.run('releaseLease', runId, workerId) === 1);
  }

  /** {@inheritDoc wuwe!RunStore.close} */
  async close(): Promise<void> {
    this.session.close();
  }
}

/** Switches a writable database to WAL with durable commits, and creates or migrates the schema. */
function prepareForWriting(db: BetterSqlite3.Database, chainer: RecordChainer): void {
  try {
    db.pragma('journal_mode = WAL');
    // Every commit reaches the disk: a started call or an admitted outcome survives power loss too.
    db.pragma('synchronous = FULL');
    // Off while the schema is created or migrated: a migration rebuilds tables others refer to, and dropping
    // the old one must not cascade (better-sqlite3 turns foreign keys on by default).
    db.pragma('foreign_keys = OFF');
    openSqliteSchema(db, chainer);
    SqliteRunEvents.createTable(db);
    db.exec(SQLITE_BUDGET_KEY_TABLES);
    db.pragma('foreign_keys = ON');
  } catch (error) {
    db.close();
    throw mapSqliteError(error);
  }
}
