import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { ChatMessage } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { AgentRunRecord, AgentRunStatus, ApprovalRecord, ToolCallIdentity, ToolCallRecord, ToolOutputProjectionInput, ToolOutputProjectionRecord } from './agent-run-record';
import { mapPostgresError } from './postgres-errors';
import { openPostgresSchema } from './postgres-schema';
import * as rules from './record-rules';
import { ApprovalDecision, ApprovalRequest, CallStartResult, CreateRunOptions, RunStore, RunSummary } from './run-store';
import { RunStoreError } from './run-store-error';
import { approvalFromRow, ApprovalRow, callFromRow, CallRow, LeaseRow, ProjectionRow, projectionFromRow, recordFromRows, RunRow } from './stored-rows';

/** Options of {@link PostgresRunStore.open}: a pool or a connection string. */
export interface PostgresRunStoreOptions {
  /** A pool the caller owns: not ended by `close()`. Attach your own `'error'` listener to it. */
  readonly pool?: Pool;
  /** Used when no `pool` is given; the store creates and owns a pool. */
  readonly connectionString?: string;
  /** PostgreSQL schema holding the `wuwe_*` tables; created when missing. @default 'public' */
  readonly schema?: string;
  /** Size of an owned pool. @default 10 */
  readonly maxConnections?: number;
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
}

type Context = { runId?: string; callId?: string };

const CALL_COLUMNS =
  'run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at';
const APPROVAL_COLUMNS = 'call_id, tool_name, arguments_sha256, state, decided_by, reason, requested_at, decided_at';
const PROJECTION_COLUMNS = 'call_id, tool_name, projected_sha256, report_json, recorded_at';

/**
 * A {@link RunStore} on PostgreSQL (`pg`), for several workers on several machines. Each operation is one
 * transaction; per-run writes lock the rows they change, leases are taken with one atomic
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired`. A connection lost mid-transaction rolls back on the
 * server and surfaces as `store_unavailable`. Tables are named `wuwe_*`; other tables in the schema are left alone.
 */
export class PostgresRunStore implements RunStore {
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly clock: () => number;
  /** Qualified table names. */
  private readonly t: Record<'runs' | 'messages' | 'calls' | 'projections' | 'approvals' | 'leases', string>;
  private closed = false;

  private constructor(pool: Pool, ownsPool: boolean, quotedSchema: string, clock: () => number) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    this.clock = clock;
    const q = quotedSchema;
    this.t = {
      runs: `${q}.wuwe_runs`,
      messages: `${q}.wuwe_messages`,
      calls: `${q}.wuwe_tool_calls`,
      projections: `${q}.wuwe_tool_output_projections`,
      approvals: `${q}.wuwe_approvals`,
      leases: `${q}.wuwe_leases`,
    };
  }

  /**
   * Connects, then creates the schema or checks it. Throws `store_unavailable` when the server cannot be
   * reached, `store_corrupt` or `schema_version_mismatch` for a schema this build cannot use.
   */
  static async open(options: PostgresRunStoreOptions): Promise<PostgresRunStore> {
    const schema = options.schema ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new RunStoreError('record_invalid', `Invalid PostgreSQL schema name '${schema}'`);
    if (!options.pool && !options.connectionString) throw new RunStoreError('record_invalid', 'PostgresRunStore needs a pool or a connectionString');
    const ownsPool = !options.pool;
    const pool = options.pool ?? new Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10, connectionTimeoutMillis: 10_000 });
    // An idle client whose server connection drops emits 'error' on the pool; without a listener the process dies.
    if (ownsPool) pool.on('error', () => undefined);
    const store = new PostgresRunStore(pool, ownsPool, `"${schema}"`, options.clock ?? Date.now);
    try {
      await store.transaction({}, (client) => openPostgresSchema(client, schema, `"${schema}"`));
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /** {@inheritDoc RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    const runId = options.runId ?? randomUUID();
    rules.checkId(runId, 'runId');
    const status = options.status ?? 'running';
    rules.checkStatus(status);
    const metadata = options.metadata === undefined ? null : rules.serializeJson(runId, [options.metadata], 'metadata object')[0];
    const messages = rules.serializeJson(runId, options.messages ?? [], 'message');
    await this.transaction({ runId }, async (client) => {
      const now = rules.isoTime(this.clock);
      const inserted = await client.query(
        `INSERT INTO ${this.t.runs} (run_id, status, metadata_json, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (run_id) DO NOTHING`,
        [runId, status, metadata, now],
      );
      if (inserted.rowCount !== 1) throw new RunStoreError('run_exists', 'A run with this id exists', { runId });
      await this.insertMessages(client, runId, 0, messages);
    });
    return (await this.loadRun(runId))!;
  }

  /** {@inheritDoc RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    return this.transaction(
      { runId },
      async (client) => {
        const run = (await client.query<RunRow>(`SELECT run_id, status, metadata_json, created_at, updated_at FROM ${this.t.runs} WHERE run_id = $1`, [runId])).rows[0];
        if (!run) return undefined;
        const byRun = [runId];
        const messages = await client.query<{ message_json: string }>(`SELECT message_json FROM ${this.t.messages} WHERE run_id = $1 ORDER BY seq`, byRun);
        const calls = await client.query<CallRow>(`SELECT ${CALL_COLUMNS} FROM ${this.t.calls} WHERE run_id = $1 ORDER BY seq`, byRun);
        const projections = await client.query<ProjectionRow>(`SELECT ${PROJECTION_COLUMNS} FROM ${this.t.projections} WHERE run_id = $1 ORDER BY seq`, byRun);
        const approvals = await client.query<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM ${this.t.approvals} WHERE run_id = $1 ORDER BY seq`, byRun);
        const lease = await client.query<LeaseRow>(`SELECT worker_id, expires_at_ms FROM ${this.t.leases} WHERE run_id = $1`, byRun);
        return recordFromRows({
          run,
          messages: messages.rows.map((row) => row.message_json),
          calls: calls.rows,
          projections: projections.rows,
          approvals: approvals.rows,
          lease: lease.rows[0],
        });
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    const columns = 'run_id, status, created_at, updated_at';
    const result = await this.query<RunRow>(
      {},
      status === undefined ? `SELECT ${columns} FROM ${this.t.runs} ORDER BY seq` : `SELECT ${columns} FROM ${this.t.runs} WHERE status = $1 ORDER BY seq`,
      status === undefined ? [] : [status],
    );
    return result.map((row) => ({ runId: row.run_id, status: row.status as AgentRunStatus, createdAt: row.created_at, updatedAt: row.updated_at }));
  }

  /** {@inheritDoc RunStore.appendMessages} */
  async appendMessages(runId: string, messages: readonly ChatMessage[]): Promise<void> {
    const texts = rules.serializeJson(runId, messages, 'message');
    await this.write({ runId }, async (client) => {
      await this.lockRun(client, runId);
      const last = await client.query<{ last: number }>(`SELECT COALESCE(MAX(seq), 0) AS last FROM ${this.t.messages} WHERE run_id = $1`, [runId]);
      await this.insertMessages(client, runId, last.rows[0].last, texts);
    });
  }

  /** {@inheritDoc RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[]): Promise<void> {
    const texts = rules.serializeJson(runId, messages, 'message');
    await this.write({ runId }, async (client) => {
      await this.lockRun(client, runId);
      await client.query(`DELETE FROM ${this.t.messages} WHERE run_id = $1`, [runId]);
      await this.insertMessages(client, runId, 0, texts);
    });
  }

  /** {@inheritDoc RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus): Promise<void> {
    rules.checkStatus(status);
    await this.write({ runId }, async (client) => {
      await client.query(`UPDATE ${this.t.runs} SET status = $2 WHERE run_id = $1`, [runId, status]);
    });
  }

  /** {@inheritDoc RunStore.recordCallStarted} */
  async recordCallStarted(runId: string, identity: ToolCallIdentity): Promise<CallStartResult> {
    const argumentsJson = rules.checkIdentity(runId, identity);
    return this.write({ runId, callId: identity.callId }, async (client) => {
      // DO NOTHING covers both unique constraints, (run_id, call_id) and idempotency_key, and waits for a
      // concurrent insert of the same key to commit or roll back.
      const inserted = await client.query<CallRow>(
        `INSERT INTO ${this.t.calls} (${CALL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, 'started', NULL, $8, NULL)
         ON CONFLICT DO NOTHING RETURNING ${CALL_COLUMNS}`,
        [runId, identity.callId, identity.toolName, identity.idempotencyKey ?? null, identity.attempts, identity.argumentsSha256, argumentsJson, rules.isoTime(this.clock)],
      );
      if (inserted.rows[0]) return { created: true, call: callFromRow(inserted.rows[0]) };
      const existing =
        (await this.findCall(client, runId, identity.callId)) ??
        (identity.idempotencyKey !== undefined ? (await client.query<CallRow>(`SELECT ${CALL_COLUMNS} FROM ${this.t.calls} WHERE idempotency_key = $1`, [identity.idempotencyKey])).rows[0] : undefined);
      if (!existing) throw new RunStoreError('store_unavailable', 'A conflicting call vanished during the insert; retry', { runId, callId: identity.callId });
      const call = callFromRow(existing);
      rules.checkSameCall(runId, call, identity);
      return { created: false, call };
    });
  }

  /** {@inheritDoc RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number): Promise<void> {
    rules.checkAttempts(attempts);
    await this.write({ runId, callId }, async (client) => {
      const row = await this.findCall(client, runId, callId, true);
      if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
      if (row.status === 'admitted') throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
      await client.query(`UPDATE ${this.t.calls} SET attempts = GREATEST(attempts, $3) WHERE run_id = $1 AND call_id = $2`, [runId, callId, attempts]);
    });
  }

  /** {@inheritDoc RunStore.admitOutcome} */
  async admitOutcome(runId: string, callId: string, outcome: ToolOutcome, attempts: number): Promise<ToolCallRecord> {
    rules.checkAttempts(attempts);
    const outcomeJson = rules.serializeOutcome(runId, callId, outcome);
    return this.write({ runId, callId }, async (client) => {
      const row = await this.findCall(client, runId, callId, true);
      if (rules.checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row!);
      const updated = await client.query<CallRow>(
        `UPDATE ${this.t.calls} SET status = 'admitted', outcome_json = $3, attempts = GREATEST(attempts, $4), admitted_at = $5
         WHERE run_id = $1 AND call_id = $2 RETURNING ${CALL_COLUMNS}`,
        [runId, callId, outcomeJson, attempts, rules.isoTime(this.clock)],
      );
      return callFromRow(updated.rows[0]);
    });
  }

  /** {@inheritDoc RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(idempotencyKey: string, argumentsSha256: string): Promise<ToolCallRecord | undefined> {
    const rows = await this.query<CallRow>({}, `SELECT ${CALL_COLUMNS} FROM ${this.t.calls} WHERE idempotency_key = $1`, [idempotencyKey]);
    if (!rows[0]) return undefined;
    const call = callFromRow(rows[0]);
    rules.checkIdempotentArguments(call, argumentsSha256);
    return call.status === 'admitted' ? call : undefined;
  }

  /** {@inheritDoc RunStore.recordProjection} */
  async recordProjection(runId: string, projection: ToolOutputProjectionInput): Promise<ToolOutputProjectionRecord> {
    return this.write({ runId, callId: projection.callId }, async (client) => {
      const call = await this.findCall(client, runId, projection.callId, true);
      const reportJson = rules.checkProjection(runId, projection, call && callFromRow(call));
      const select = `SELECT ${PROJECTION_COLUMNS} FROM ${this.t.projections} WHERE run_id = $1 AND call_id = $2`;
      const stored = (await client.query<ProjectionRow>(select, [runId, projection.callId])).rows[0];
      if (stored) {
        rules.checkSameProjection(runId, { toolName: stored.tool_name, projectedSha256: stored.projected_sha256, reportJson: stored.report_json }, projection, reportJson);
        return projectionFromRow(stored, runId);
      }
      const inserted = await client.query<ProjectionRow>(
        `INSERT INTO ${this.t.projections} (run_id, call_id, tool_name, projected_sha256, report_json, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING ${PROJECTION_COLUMNS}`,
        [runId, projection.callId, projection.toolName, projection.projectedSha256, reportJson, rules.isoTime(this.clock)],
      );
      return projectionFromRow(inserted.rows[0], runId);
    });
  }

  /** {@inheritDoc RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest): Promise<ApprovalRecord> {
    return this.write({ runId, callId: request.callId }, async (client) => {
      await this.lockRun(client, runId);
      const stored = await this.findApproval(client, runId, request.callId);
      rules.checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
      if (stored) return approvalFromRow(stored);
      const inserted = await client.query<ApprovalRow>(
        `INSERT INTO ${this.t.approvals} (run_id, call_id, tool_name, arguments_sha256, state, requested_at) VALUES ($1, $2, $3, $4, 'pending', $5)
         RETURNING ${APPROVAL_COLUMNS}`,
        [runId, request.callId, request.toolName, request.argumentsSha256, rules.isoTime(this.clock)],
      );
      return approvalFromRow(inserted.rows[0]);
    });
  }

  /** {@inheritDoc RunStore.decideApproval} */
  async decideApproval(runId: string, callId: string, decision: ApprovalDecision): Promise<ApprovalRecord> {
    return this.write({ runId, callId }, async (client) => {
      const stored = await this.findApproval(client, runId, callId, true);
      if (!rules.checkDecision(runId, callId, stored && approvalFromRow(stored), decision)) return approvalFromRow(stored!);
      const updated = await client.query<ApprovalRow>(
        `UPDATE ${this.t.approvals} SET state = $3, decided_by = $4, reason = $5, decided_at = $6 WHERE run_id = $1 AND call_id = $2 RETURNING ${APPROVAL_COLUMNS}`,
        [runId, callId, decision.approved ? 'approved' : 'denied', decision.decidedBy ?? null, decision.reason ?? null, rules.isoTime(this.clock)],
      );
      return approvalFromRow(updated.rows[0]);
    });
  }

  /** {@inheritDoc RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkId(workerId, 'workerId');
    rules.checkTtl(ttlMs);
    const now = this.clock();
    const rows = await this.query(
      { runId },
      `INSERT INTO ${this.t.leases} AS lease (run_id, worker_id, expires_at_ms) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, expires_at_ms = EXCLUDED.expires_at_ms
       WHERE lease.worker_id = EXCLUDED.worker_id OR lease.expires_at_ms <= $4
       RETURNING run_id`,
      [runId, workerId, now + ttlMs, now],
    );
    return rows.length === 1;
  }

  /** {@inheritDoc RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkTtl(ttlMs);
    const rows = await this.query({ runId }, `UPDATE ${this.t.leases} SET expires_at_ms = $3 WHERE run_id = $1 AND worker_id = $2 RETURNING run_id`, [
      runId,
      workerId,
      this.clock() + ttlMs,
    ]);
    if (rows.length === 1) return true;
    await this.requireRun(runId);
    return false;
  }

  /** {@inheritDoc RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    const rows = await this.query({ runId }, `DELETE FROM ${this.t.leases} WHERE run_id = $1 AND worker_id = $2 RETURNING run_id`, [runId, workerId]);
    if (rows.length === 1) return true;
    await this.requireRun(runId);
    return false;
  }

  /** {@inheritDoc RunStore.close} */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  /**
   * Runs `body` in one transaction on one pooled connection. On any failure the transaction is rolled back;
   * a connection that cannot even roll back (lost) is destroyed rather than returned to the pool.
   */
  private async transaction<T>(context: Context, body: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw mapPostgresError(error, context);
    }
    const ignore = (): void => undefined;
    client.on('error', ignore);
    let broken = false;
    try {
      await client.query(begin);
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw mapPostgresError(error, context);
    } finally {
      client.off('error', ignore);
      client.release(broken);
    }
  }

  /** A transaction on an existing run that moves its `updated_at`; a missing run throws `run_not_found`. */
  private async write<T>(context: Context & { runId: string }, body: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(context, async (client) => {
      let result: T;
      try {
        result = await body(client);
      } catch (error) {
        if (error instanceof RunStoreError && error.code.endsWith('_not_found')) await this.requireRun(context.runId, client);
        throw error;
      }
      const touched = await client.query(`UPDATE ${this.t.runs} SET updated_at = $2 WHERE run_id = $1`, [context.runId, rules.isoTime(this.clock)]);
      if (touched.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', context);
      return result;
    });
  }

  /** One statement outside an explicit transaction. */
  private async query<R extends object>(context: Context, text: string, values: unknown[]): Promise<R[]> {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw mapPostgresError(error, context);
    }
  }

  /** Throws `run_not_found` unless the run exists. */
  private async requireRun(runId: string, client?: PoolClient): Promise<void> {
    const text = `SELECT 1 FROM ${this.t.runs} WHERE run_id = $1`;
    const rows = client ? (await client.query(text, [runId])).rows : await this.query({ runId }, text, [runId]);
    if (rows.length === 0) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  private async lockRun(client: PoolClient, runId: string): Promise<void> {
    const locked = await client.query(`SELECT 1 FROM ${this.t.runs} WHERE run_id = $1 FOR UPDATE`, [runId]);
    if (locked.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', { runId });
  }

  private async insertMessages(client: PoolClient, runId: string, after: number, texts: readonly string[]): Promise<void> {
    if (texts.length === 0) return;
    await client.query(
      `INSERT INTO ${this.t.messages} (run_id, seq, message_json) SELECT $1, $2 + item.ordinality, item.text FROM unnest($3::text[]) WITH ORDINALITY AS item(text, ordinality)`,
      [runId, after, texts],
    );
  }

  private async findCall(client: PoolClient, runId: string, callId: string, lock = false): Promise<CallRow | undefined> {
    const text = `SELECT ${CALL_COLUMNS} FROM ${this.t.calls} WHERE run_id = $1 AND call_id = $2${lock ? ' FOR UPDATE' : ''}`;
    return (await client.query<CallRow>(text, [runId, callId])).rows[0];
  }

  private async findApproval(client: PoolClient, runId: string, callId: string, lock = false): Promise<ApprovalRow | undefined> {
    const text = `SELECT ${APPROVAL_COLUMNS} FROM ${this.t.approvals} WHERE run_id = $1 AND call_id = $2${lock ? ' FOR UPDATE' : ''}`;
    return (await client.query<ApprovalRow>(text, [runId, callId])).rows[0];
  }
}
