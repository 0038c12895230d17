import type { Pool } from 'pg';
import { hasErrorMarker } from '../../errors/error-marker';
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
import { decidePostgresApproval, requestPostgresApproval } from './postgres-approval-writes';
import {
  admitPostgresOutcome,
  findPostgresAdmittedByKey,
  recordPostgresAttempt,
  startPostgresCall,
} from './postgres-call-writes';
import { acquirePostgresLease, releasePostgresLease, renewPostgresLease } from './postgres-leases';
import { insertPostgresProjection } from './postgres-projection-writes';
import { executorOn } from './postgres-executor';
import { ownedPostgresPool } from './postgres-owned-pool';
import { PostgresRunStoreOptions, PostgresSqlExecutor } from './postgres-run-store-options';
import { PostgresRunSession } from './postgres-run-session';
import { listPostgresRuns, readPostgresRun } from './postgres-run-reads';
import {
  appendPostgresMessages,
  createPostgresRun,
  savePostgresMessages,
  setPostgresStatus,
} from './postgres-run-writes';
import { inspectPostgresSchema, openPostgresSchema } from './postgres-schema';
import type { JsonObject } from '../../outcome/json-value';
import type {
  AppendRunEventsOptions,
  KeptRunEvent,
  ReadRunEventsOptions,
  RunEventLog,
} from '../run-events/run-event-log';
import { PostgresRunEvents, postgresRunEventsTable } from './postgres-run-events';
import type { BudgetKeyStore } from '../budget/budget-keys';
import { PostgresBudgetKeys, postgresBudgetKeyTables } from './postgres-budget-keys';

const POSTGRES_RUN_STORE = Symbol.for('wuwe.PostgresRunStore');

/**
 * A {@link RunStore} on PostgreSQL (`pg`), for several workers on several machines. Each operation is one
 * transaction; per-run writes lock the rows they change, leases are taken with one atomic
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE expired`. A connection lost mid-transaction rolls back on the
 * server and surfaces as `store_unavailable`. Tables are named `wuwe_*`; other tables in the schema are left alone.
 * `pg` is an optional peer dependency, loaded on the first `open` (`MissingDependencyError` when it is not installed).
 * The SQL of each concern lives beside it: `postgres-run-reads.ts`, `postgres-run-writes.ts`,
 * `postgres-call-writes.ts`, `postgres-approval-writes.ts`, `postgres-projection-writes.ts`, `postgres-leases.ts`,
 * `postgres-schema.ts`.
 */
export class PostgresRunStore implements RunStore, RunEventLog {
  /** Marks a `PostgresRunStore` of any copy of the package (see {@link PostgresRunStore.isInstance}). */
  readonly [POSTGRES_RUN_STORE] = true;

  /** True for a `PostgresRunStore` of any copy of the package: plug-in seams test with this, not `instanceof`. */
  static isInstance(value: unknown): value is PostgresRunStore {
    return hasErrorMarker(value, POSTGRES_RUN_STORE);
  }

  /** The budgets of keys shared by runs (tables `wuwe_budget_*`; see {@link wuwe!RunStore.budgetKeys}). */
  readonly budgetKeys: BudgetKeyStore;

  private constructor(
    private readonly session: PostgresRunSession,
    private readonly events: PostgresRunEvents,
    quotedSchema: string,
  ) {
    this.budgetKeys = new PostgresBudgetKeys(session, quotedSchema);
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
    const pool = ownsPool ? ownedPostgresPool(options) : (options.pool as Pool);
    const quoted = `"${schema}"`;
    const session = new PostgresRunSession(pool, ownsPool, quoted, options.clock ?? Date.now, chainer);
    try {
      if (options.readOnly === true)
        await session.transaction(
          {},
          async (client) => checkReadableStore(await inspectPostgresSchema(client, schema, quoted), `Schema ${schema}`),
          'BEGIN READ ONLY',
        );
      else
        await session.transaction({}, async (client) => {
          await openPostgresSchema(client, schema, quoted, chainer, options.create !== false);
          await client.query(postgresRunEventsTable(quoted));
          await client.query(postgresBudgetKeyTables(quoted));
        });
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => undefined);
      throw error;
    }
    return new PostgresRunStore(session, new PostgresRunEvents(session, pool, schema, quoted), quoted);
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
    return createPostgresRun(this.session, options, alsoInTransaction);
  }

  /** Runs `body` with an executor on one read-only transaction of the store's database. */
  async readWith<T>(body: (db: PostgresSqlExecutor) => Promise<T>): Promise<T> {
    return this.session.read({}, (client) => body(executorOn(client)));
  }

  /** {@inheritDoc wuwe!RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    const record = await this.exportRun(runId);
    return record && this.session.chainer.verified(record);
  }

  /** {@inheritDoc wuwe!RunStore.exportRun} */
  async exportRun(runId: string): Promise<ChainedRunRecord | undefined> {
    return readPostgresRun(this.session, runId);
  }

  /** {@inheritDoc wuwe!RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    return listPostgresRuns(this.session, status);
  }

  /** {@inheritDoc wuwe!RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    await appendPostgresMessages(this.session, runId, messages, options);
  }

  /** {@inheritDoc wuwe!RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    await savePostgresMessages(this.session, runId, messages, options);
  }

  /** {@inheritDoc wuwe!RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: SetStatusOptions): Promise<SetStatusResult> {
    return setPostgresStatus(this.session, runId, status, options);
  }

  /** {@inheritDoc wuwe!RunStore.recordCallStarted} */
  async recordCallStarted(
    runId: string,
    identity: ToolCallIdentity,
    options?: RunWriteOptions,
  ): Promise<CallStartResult> {
    return startPostgresCall(this.session, runId, identity, options);
  }

  /** {@inheritDoc wuwe!RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    await recordPostgresAttempt(this.session, runId, callId, attempts, options);
  }

  /** {@inheritDoc wuwe!RunStore.admitOutcome} */
  async admitOutcome(
    runId: string,
    callId: string,
    outcome: ToolOutcome,
    attempts: number,
    options?: CallWriteOptions,
  ): Promise<ToolCallRecord> {
    return admitPostgresOutcome(this.session, runId, callId, outcome, attempts, options);
  }

  /** {@inheritDoc wuwe!RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(
    idempotencyKey: string,
    argumentsSha256: string,
  ): Promise<ToolCallRecord | undefined> {
    return findPostgresAdmittedByKey(this.session, idempotencyKey, argumentsSha256);
  }

  /** {@inheritDoc wuwe!RunStore.recordProjection} */
  async recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord> {
    return this.session.write({ runId, callId: projection.callId }, options, (client, chain) =>
      insertPostgresProjection(this.session, client, runId, projection, chain),
    );
  }

  /** {@inheritDoc wuwe!RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    return requestPostgresApproval(this.session, runId, request, options);
  }

  /** {@inheritDoc wuwe!RunStore.decideApproval} */
  async decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord> {
    return decidePostgresApproval(this.session, runId, callId, decision, options);
  }

  /** {@inheritDoc wuwe!RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    return acquirePostgresLease(this.session, runId, workerId, ttlMs);
  }

  /** {@inheritDoc wuwe!RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    return renewPostgresLease(this.session, runId, workerId, ttlMs);
  }

  /** {@inheritDoc wuwe!RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    return releasePostgresLease(this.session, runId, workerId);
  }

  /**
   * `appendRunEvents` of {@link durable!RunEventLog.appendRunEvents}: notifies `wuwe_run_events` as it commits.
   */
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
   * `waitForRunEvents` of {@link durable!RunEventLog.waitForRunEvents}: LISTEN on one connection of the pool,
   * shared by followers.
   */
  async waitForRunEvents(runId: string, after: number, signal?: AbortSignal): Promise<void> {
    return this.events.wait(runId, after, signal);
  }

  /** {@inheritDoc wuwe!RunStore.close} */
  async close(): Promise<void> {
    await this.events.close();
    await this.session.close();
  }
}
