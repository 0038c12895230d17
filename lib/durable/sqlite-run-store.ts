import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ChatMessage } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { AgentRunRecord, AgentRunStatus, ApprovalRecord, ToolCallIdentity, ToolCallRecord, ToolOutputProjectionInput, ToolOutputProjectionRecord } from './agent-run-record';
import * as rules from './record-rules';
import { ApprovalDecision, ApprovalRequest, CallStartResult, CreateRunOptions, RunStore, RunSummary } from './run-store';
import { RunStoreError } from './run-store-error';
import { mapSqliteError } from './sqlite-errors';
import { openSqliteSchema } from './sqlite-schema';
import { approvalFromRow, ApprovalRow, callFromRow, CallRow, LeaseRow, ProjectionRow, projectionFromRow, recordFromRows, RunRow } from './stored-rows';

/** Options of {@link SqliteRunStore}. */
export interface SqliteRunStoreOptions {
  /** Database file; missing directories are created. `:memory:` keeps it in memory. @default '.wuwe/runs.db' */
  readonly path?: string;
  /** How long a statement waits for another process's write lock before failing with `store_unavailable`. @default 5000 */
  readonly busyTimeoutMs?: number;
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
}

const CALL_COLUMNS =
  'run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at';

/**
 * A {@link RunStore} in one SQLite file (better-sqlite3, WAL journal): the embedded default. Several processes on
 * one machine may share the file; writes are serialized by SQLite and leases keep one worker per run.
 * Opening creates the schema or checks it, and throws a {@link RunStoreError} for a foreign, damaged or newer file.
 */
export class SqliteRunStore implements RunStore {
  /** The database file this store uses. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  constructor(options: SqliteRunStoreOptions | string = {}) {
    const resolved = typeof options === 'string' ? { path: options } : options;
    this.path = resolved.path ?? '.wuwe/runs.db';
    this.clock = resolved.clock ?? Date.now;
    let db: Database.Database | undefined;
    try {
      if (this.path !== ':memory:') mkdirSync(dirname(this.path), { recursive: true });
      db = new Database(this.path);
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(resolved.busyTimeoutMs ?? 5000))}`);
      db.pragma('journal_mode = WAL');
      // Every commit reaches the disk: a started call or an admitted outcome survives power loss too.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      openSqliteSchema(db);
    } catch (error) {
      db?.close();
      throw mapSqliteError(error);
    }
    this.db = db;
  }

  /** Opens a store; the same as the constructor, for symmetry with {@link PostgresRunStore.open}. */
  static async open(options: SqliteRunStoreOptions | string = {}): Promise<SqliteRunStore> {
    return new SqliteRunStore(options);
  }

  /** {@inheritDoc RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    const runId = options.runId ?? randomUUID();
    rules.checkId(runId, 'runId');
    const status = options.status ?? 'running';
    rules.checkStatus(status);
    const metadata = options.metadata === undefined ? null : rules.serializeJson(runId, [options.metadata], 'metadata object')[0];
    const messages = rules.serializeJson(runId, options.messages ?? [], 'message');
    this.transaction({ runId }, () => {
      if (this.sql('SELECT 1 FROM wuwe_runs WHERE run_id = ?').get(runId)) throw new RunStoreError('run_exists', 'A run with this id exists', { runId });
      const now = rules.isoTime(this.clock);
      this.sql('INSERT INTO wuwe_runs (run_id, status, metadata_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(runId, status, metadata, now, now);
      this.insertMessages(runId, 0, messages);
    });
    return (await this.loadRun(runId))!;
  }

  /** {@inheritDoc RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    return this.read({ runId }, () => {
      const run = this.sql('SELECT run_id, status, metadata_json, created_at, updated_at FROM wuwe_runs WHERE run_id = ?').get(runId) as RunRow | undefined;
      if (!run) return undefined;
      return recordFromRows({
        run,
        messages: this.sql('SELECT message_json FROM wuwe_messages WHERE run_id = ? ORDER BY seq').pluck().all(runId) as string[],
        calls: this.sql(`SELECT ${CALL_COLUMNS} FROM wuwe_tool_calls WHERE run_id = ? ORDER BY rowid`).all(runId) as CallRow[],
        projections: this.sql(
          'SELECT call_id, tool_name, projected_sha256, report_json, recorded_at FROM wuwe_tool_output_projections WHERE run_id = ? ORDER BY rowid',
        ).all(runId) as ProjectionRow[],
        approvals: this.sql(
          'SELECT call_id, tool_name, arguments_sha256, state, decided_by, reason, requested_at, decided_at FROM wuwe_approvals WHERE run_id = ? ORDER BY rowid',
        ).all(runId) as ApprovalRow[],
        lease: this.sql('SELECT worker_id, expires_at_ms FROM wuwe_leases WHERE run_id = ?').get(runId) as LeaseRow | undefined,
      });
    });
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    return this.read({}, () => {
      const rows = (
        status === undefined
          ? this.sql('SELECT run_id, status, created_at, updated_at FROM wuwe_runs ORDER BY rowid').all()
          : this.sql('SELECT run_id, status, created_at, updated_at FROM wuwe_runs WHERE status = ? ORDER BY rowid').all(status)
      ) as RunRow[];
      return rows.map((row) => ({ runId: row.run_id, status: row.status as AgentRunStatus, createdAt: row.created_at, updatedAt: row.updated_at }));
    });
  }

  /** {@inheritDoc RunStore.appendMessages} */
  async appendMessages(runId: string, messages: readonly ChatMessage[]): Promise<void> {
    const texts = rules.serializeJson(runId, messages, 'message');
    this.write({ runId }, () => {
      const last = this.sql('SELECT COALESCE(MAX(seq), 0) FROM wuwe_messages WHERE run_id = ?').pluck().get(runId) as number;
      this.insertMessages(runId, last, texts);
    });
  }

  /** {@inheritDoc RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[]): Promise<void> {
    const texts = rules.serializeJson(runId, messages, 'message');
    this.write({ runId }, () => {
      this.sql('DELETE FROM wuwe_messages WHERE run_id = ?').run(runId);
      this.insertMessages(runId, 0, texts);
    });
  }

  /** {@inheritDoc RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus): Promise<void> {
    rules.checkStatus(status);
    this.write({ runId }, () => {
      this.sql('UPDATE wuwe_runs SET status = ? WHERE run_id = ?').run(status, runId);
    });
  }

  /** {@inheritDoc RunStore.recordCallStarted} */
  async recordCallStarted(runId: string, identity: ToolCallIdentity): Promise<CallStartResult> {
    const argumentsJson = rules.checkIdentity(runId, identity);
    return this.write({ runId, callId: identity.callId }, () => {
      const existing = this.findCall(runId, identity.callId) ?? (identity.idempotencyKey !== undefined ? this.findCallByKey(identity.idempotencyKey) : undefined);
      if (existing) {
        const call = callFromRow(existing);
        rules.checkSameCall(runId, call, identity);
        return { created: false, call };
      }
      this.sql(`INSERT INTO wuwe_tool_calls (${CALL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 'started', NULL, ?, NULL)`).run(
        runId,
        identity.callId,
        identity.toolName,
        identity.idempotencyKey ?? null,
        identity.attempts,
        identity.argumentsSha256,
        argumentsJson,
        rules.isoTime(this.clock),
      );
      return { created: true, call: callFromRow(this.findCall(runId, identity.callId)!) };
    });
  }

  /** {@inheritDoc RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number): Promise<void> {
    rules.checkAttempts(attempts);
    this.write({ runId, callId }, () => {
      const row = this.findCall(runId, callId);
      if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
      if (row.status === 'admitted') throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
      this.sql('UPDATE wuwe_tool_calls SET attempts = MAX(attempts, ?) WHERE run_id = ? AND call_id = ?').run(attempts, runId, callId);
    });
  }

  /** {@inheritDoc RunStore.admitOutcome} */
  async admitOutcome(runId: string, callId: string, outcome: ToolOutcome, attempts: number): Promise<ToolCallRecord> {
    rules.checkAttempts(attempts);
    const outcomeJson = rules.serializeOutcome(runId, callId, outcome);
    return this.write({ runId, callId }, () => {
      const row = this.findCall(runId, callId);
      if (rules.checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row!);
      this.sql(
        "UPDATE wuwe_tool_calls SET status = 'admitted', outcome_json = ?, attempts = MAX(attempts, ?), admitted_at = ? WHERE run_id = ? AND call_id = ?",
      ).run(outcomeJson, attempts, rules.isoTime(this.clock), runId, callId);
      return callFromRow(this.findCall(runId, callId)!);
    });
  }

  /** {@inheritDoc RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(idempotencyKey: string, argumentsSha256: string): Promise<ToolCallRecord | undefined> {
    return this.read({}, () => {
      const row = this.findCallByKey(idempotencyKey);
      if (!row) return undefined;
      const call = callFromRow(row);
      rules.checkIdempotentArguments(call, argumentsSha256);
      return call.status === 'admitted' ? call : undefined;
    });
  }

  /** {@inheritDoc RunStore.recordProjection} */
  async recordProjection(runId: string, projection: ToolOutputProjectionInput): Promise<ToolOutputProjectionRecord> {
    return this.write({ runId, callId: projection.callId }, () => {
      const call = this.findCall(runId, projection.callId);
      const reportJson = rules.checkProjection(runId, projection, call && callFromRow(call));
      const select = 'SELECT call_id, tool_name, projected_sha256, report_json, recorded_at FROM wuwe_tool_output_projections WHERE run_id = ? AND call_id = ?';
      const stored = this.sql(select).get(runId, projection.callId) as ProjectionRow | undefined;
      if (stored) {
        rules.checkSameProjection(runId, { toolName: stored.tool_name, projectedSha256: stored.projected_sha256, reportJson: stored.report_json }, projection, reportJson);
        return projectionFromRow(stored, runId);
      }
      this.sql(
        'INSERT INTO wuwe_tool_output_projections (run_id, call_id, tool_name, projected_sha256, report_json, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(runId, projection.callId, projection.toolName, projection.projectedSha256, reportJson, rules.isoTime(this.clock));
      return projectionFromRow(this.sql(select).get(runId, projection.callId) as ProjectionRow, runId);
    });
  }

  /** {@inheritDoc RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest): Promise<ApprovalRecord> {
    return this.write({ runId, callId: request.callId }, () => {
      const stored = this.findApproval(runId, request.callId);
      rules.checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
      if (stored) return approvalFromRow(stored);
      this.sql(
        "INSERT INTO wuwe_approvals (run_id, call_id, tool_name, arguments_sha256, state, requested_at) VALUES (?, ?, ?, ?, 'pending', ?)",
      ).run(runId, request.callId, request.toolName, request.argumentsSha256, rules.isoTime(this.clock));
      return approvalFromRow(this.findApproval(runId, request.callId)!);
    });
  }

  /** {@inheritDoc RunStore.decideApproval} */
  async decideApproval(runId: string, callId: string, decision: ApprovalDecision): Promise<ApprovalRecord> {
    return this.write({ runId, callId }, () => {
      const stored = this.findApproval(runId, callId);
      if (!rules.checkDecision(runId, callId, stored && approvalFromRow(stored), decision)) return approvalFromRow(stored!);
      this.sql('UPDATE wuwe_approvals SET state = ?, decided_by = ?, reason = ?, decided_at = ? WHERE run_id = ? AND call_id = ?').run(
        decision.approved ? 'approved' : 'denied',
        decision.decidedBy ?? null,
        decision.reason ?? null,
        rules.isoTime(this.clock),
        runId,
        callId,
      );
      return approvalFromRow(this.findApproval(runId, callId)!);
    });
  }

  /** {@inheritDoc RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkId(workerId, 'workerId');
    rules.checkTtl(ttlMs);
    return this.lease(runId, () => {
      const now = this.clock();
      const result = this.sql(
        `INSERT INTO wuwe_leases (run_id, worker_id, expires_at_ms) VALUES (?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET worker_id = excluded.worker_id, expires_at_ms = excluded.expires_at_ms
         WHERE wuwe_leases.worker_id = excluded.worker_id OR wuwe_leases.expires_at_ms <= ?`,
      ).run(runId, workerId, now + ttlMs, now);
      return result.changes === 1;
    });
  }

  /** {@inheritDoc RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkTtl(ttlMs);
    return this.lease(runId, () => {
      const result = this.sql('UPDATE wuwe_leases SET expires_at_ms = ? WHERE run_id = ? AND worker_id = ?').run(this.clock() + ttlMs, runId, workerId);
      return result.changes === 1;
    });
  }

  /** {@inheritDoc RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    return this.lease(runId, () => this.sql('DELETE FROM wuwe_leases WHERE run_id = ? AND worker_id = ?').run(runId, workerId).changes === 1);
  }

  /** {@inheritDoc RunStore.close} */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private checkOpen(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }

  /** Runs `body` in an immediate transaction: the write lock is taken up front, so no upgrade can deadlock. */
  private transaction<T>(context: { runId?: string; callId?: string }, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).immediate();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  /** A transaction on an existing run that moves its `updated_at`. Throws `run_not_found`. */
  private write<T>(context: { runId: string; callId?: string }, body: () => T): T {
    return this.transaction(context, () => {
      this.requireRun(context.runId);
      const result = body();
      this.sql('UPDATE wuwe_runs SET updated_at = ? WHERE run_id = ?').run(rules.isoTime(this.clock), context.runId);
      return result;
    });
  }

  /** A transaction on an existing run that leaves `updated_at` alone (lease operations). */
  private lease<T>(runId: string, body: () => T): T {
    return this.transaction({ runId }, () => {
      this.requireRun(runId);
      return body();
    });
  }

  /** Runs `body` in a read transaction: one consistent snapshot. */
  private read<T>(context: { runId?: string }, body: () => T): T {
    this.checkOpen();
    try {
      return this.db.transaction(body).deferred();
    } catch (error) {
      throw mapSqliteError(error, context);
    }
  }

  private requireRun(runId: string): void {
    if (!this.sql('SELECT 1 FROM wuwe_runs WHERE run_id = ?').get(runId)) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  private insertMessages(runId: string, after: number, texts: readonly string[]): void {
    const insert = this.sql('INSERT INTO wuwe_messages (run_id, seq, message_json) VALUES (?, ?, ?)');
    texts.forEach((text, index) => insert.run(runId, after + index + 1, text));
  }

  private findCall(runId: string, callId: string): CallRow | undefined {
    return this.sql(`SELECT ${CALL_COLUMNS} FROM wuwe_tool_calls WHERE run_id = ? AND call_id = ?`).get(runId, callId) as CallRow | undefined;
  }

  private findCallByKey(idempotencyKey: string): CallRow | undefined {
    return this.sql(`SELECT ${CALL_COLUMNS} FROM wuwe_tool_calls WHERE idempotency_key = ?`).get(idempotencyKey) as CallRow | undefined;
  }

  private findApproval(runId: string, callId: string): ApprovalRow | undefined {
    return this.sql('SELECT call_id, tool_name, arguments_sha256, state, decided_by, reason, requested_at, decided_at FROM wuwe_approvals WHERE run_id = ? AND call_id = ?').get(
      runId,
      callId,
    ) as ApprovalRow | undefined;
  }
}
