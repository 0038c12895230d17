import type { ApprovalRow, CallRow, ChainRow, LeaseRow, ProjectionRow, RunRow } from '../stored-rows';

/**
 * The statements both SQL run stores run, keyed by what they do. Each dialect supplies the text
 * (`sqlite-statements.ts`, `postgres-statements.ts`); parameters are numbered (`?1` in SQLite, `$1` in
 * PostgreSQL) and come in the order documented on each key, so the two stores call them the same way.
 * Column lists come from {@link STORE_TABLE_COLUMNS}. A call is addressed by (run_id, call_id, turn): a call id repeats
 * across turns. What cannot be shared (locking, bulk inserts,
 * check-then-insert against `ON CONFLICT`) stays in each dialect's own table and store.
 */
export interface RunStoreStatements {
  /** (run_id, status, metadata_json, created_at): inserts a run; `updated_at` = `created_at`, fencing token 0. */
  readonly insertRun: string;
  /** (run_id) -> {@link RunRow}. */
  readonly selectRun: string;
  /** () -> {@link RunRow}, oldest first. */
  readonly listRuns: string;
  /** (status) -> {@link RunRow}, oldest first. */
  readonly listRunsByStatus: string;
  /** (run_id): raises the run's fencing token by one, on a successful lease acquisition. */
  readonly raiseFencingToken: string;
  /** (run_id): the approvals still pending become `cancelled`. */
  readonly cancelPendingApprovals: string;
  /** (run_id, updated_at): moves the run's `updated_at`. */
  readonly touchRun: string;
  /** (run_id, status). */
  readonly updateStatus: string;
  /** (run_id) -> `{ message_json }` in order. */
  readonly selectMessages: string;
  /** (run_id) -> `{ last }`, the highest message sequence number or 0. */
  readonly lastMessageSeq: string;
  /** (run_id). */
  readonly deleteMessages: string;
  /** (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, started_at, turn). */
  readonly insertCall: string;
  /** (run_id) -> {@link CallRow} in start order. */
  readonly selectCalls: string;
  /** (run_id, call_id, turn) -> {@link CallRow}. */
  readonly selectCall: string;
  /** (idempotency_key) -> {@link CallRow}. */
  readonly selectCallByKey: string;
  /** (run_id, call_id, attempts, turn): raises the attempt count, never lowers it. */
  readonly raiseAttempts: string;
  /** (run_id, call_id, outcome_json, attempts, admitted_at, turn). */
  readonly admitCall: string;
  /** (run_id) -> {@link ProjectionRow} in record order. */
  readonly selectProjections: string;
  /** (run_id, call_id, turn) -> {@link ProjectionRow}. */
  readonly selectProjection: string;
  /** (run_id, call_id, tool_name, projected_sha256, report_json, recorded_at, turn, content_sha256, message_index). */
  readonly insertProjection: string;
  /** (run_id) -> {@link ApprovalRow} in request order. */
  readonly selectApprovals: string;
  /** (run_id, call_id, turn) -> {@link ApprovalRow}. */
  readonly selectApproval: string;
  /** (run_id, call_id, tool_name, arguments_sha256, requested_at, turn): a pending approval. */
  readonly insertApproval: string;
  /** (run_id, call_id, state, decided_by, reason, decided_at, turn, decided_arguments_sha256). */
  readonly decideApproval: string;
  /** (run_id) -> {@link ApprovalRow} still pending, in request order. */
  readonly selectPendingApprovals: string;
  /** (run_id) -> {@link ChainRow} in chain order. */
  readonly selectChain: string;
  /** (run_id, seq, kind, subject, entity_sha256, source, key_id, digest): one chain entry. */
  readonly insertChainEntry: string;
  /** (run_id, chain_head, chain_length): moves the run's chain head. */
  readonly setChainHead: string;
  /** (run_id) -> {@link LeaseRow}. */
  readonly selectLease: string;
  /** (run_id, worker_id, expires_at_ms, now_ms): takes the lease unless another worker's is live. */
  readonly acquireLease: string;
  /** (run_id, worker_id, expires_at_ms): extends the lease `worker_id` holds. */
  readonly renewLease: string;
  /** (run_id, worker_id): releases the lease `worker_id` holds. */
  readonly releaseLease: string;
}

/** The row each reading statement of {@link RunStoreStatements} returns. */
export interface RunStoreStatementRows {
  readonly selectRun: RunRow;
  readonly listRuns: RunRow;
  readonly listRunsByStatus: RunRow;
  readonly selectMessages: { message_json: string };
  readonly lastMessageSeq: { last: number | string };
  readonly selectCalls: CallRow;
  readonly selectCall: CallRow;
  readonly selectCallByKey: CallRow;
  readonly selectProjections: ProjectionRow;
  readonly selectProjection: ProjectionRow;
  readonly selectApprovals: ApprovalRow;
  readonly selectApproval: ApprovalRow;
  readonly selectLease: LeaseRow;
  readonly selectPendingApprovals: ApprovalRow;
  readonly selectChain: ChainRow;
}

/** A statement of {@link RunStoreStatementRows}: one that returns rows. */
export type ReadingStatement = keyof RunStoreStatementRows;
