import type { RunStoreStatements } from '../sql/run-store-statements';
import { columnList } from '../store-layout';

const RUNS = columnList('wuwe_runs');
const CALLS = columnList('wuwe_tool_calls');
const PROJECTIONS = columnList('wuwe_tool_output_projections');
const APPROVALS = columnList('wuwe_approvals');
const LEASES = columnList('wuwe_leases');
const CHAIN = 'seq, kind, subject, entity_sha256, source, key_id, digest';

/** SQLite's statements beyond the shared ones. */
export interface SqliteStatements extends RunStoreStatements {
  /** (run_id) -> a row when the run exists. */
  readonly runExists: string;
  /** (run_id, seq, message_json): one message (better-sqlite3 runs a prepared insert per message). */
  readonly insertMessage: string;
}

/** The SQL of {@link SqliteRunStore}: rows come back in insertion (`rowid`) order. */
export const SQLITE_STATEMENTS: SqliteStatements = Object.freeze({
  insertRun: `INSERT INTO wuwe_runs (${RUNS}) VALUES (?1, ?2, ?3, ?4, ?4, 0, NULL, 0)`,
  selectRun: `SELECT ${RUNS} FROM wuwe_runs WHERE run_id = ?1`,
  listRuns: `SELECT ${RUNS} FROM wuwe_runs ORDER BY rowid`,
  listRunsByStatus: `SELECT ${RUNS} FROM wuwe_runs WHERE status = ?1 ORDER BY rowid`,
  touchRun: 'UPDATE wuwe_runs SET updated_at = ?2 WHERE run_id = ?1',
  raiseFencingToken: 'UPDATE wuwe_runs SET fencing_token = fencing_token + 1 WHERE run_id = ?1',
  cancelPendingApprovals: "UPDATE wuwe_approvals SET state = 'cancelled' WHERE run_id = ?1 AND state = 'pending'",
  updateStatus: 'UPDATE wuwe_runs SET status = ?2 WHERE run_id = ?1',
  runExists: 'SELECT 1 AS found FROM wuwe_runs WHERE run_id = ?1',
  selectMessages: 'SELECT message_json FROM wuwe_messages WHERE run_id = ?1 ORDER BY seq',
  lastMessageSeq: 'SELECT COALESCE(MAX(seq), 0) AS last FROM wuwe_messages WHERE run_id = ?1',
  deleteMessages: 'DELETE FROM wuwe_messages WHERE run_id = ?1',
  insertMessage: 'INSERT INTO wuwe_messages (run_id, seq, message_json) VALUES (?1, ?2, ?3)',
  insertCall: `INSERT INTO wuwe_tool_calls (${CALLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'started', NULL, ?8, NULL, ?9)`,
  selectCalls: `SELECT ${CALLS} FROM wuwe_tool_calls WHERE run_id = ?1 ORDER BY rowid`,
  selectCall: `SELECT ${CALLS} FROM wuwe_tool_calls WHERE run_id = ?1 AND call_id = ?2 AND turn = ?3`,
  selectCallByKey: `SELECT ${CALLS} FROM wuwe_tool_calls WHERE idempotency_key = ?1`,
  raiseAttempts:
    'UPDATE wuwe_tool_calls SET attempts = MAX(attempts, ?3) WHERE run_id = ?1 AND call_id = ?2 AND turn = ?4',
  admitCall:
    "UPDATE wuwe_tool_calls SET status = 'admitted', outcome_json = ?3, attempts = MAX(attempts, ?4), admitted_at = ?5 WHERE run_id = ?1 AND call_id = ?2 AND turn = ?6",
  selectProjections: `SELECT ${PROJECTIONS} FROM wuwe_tool_output_projections WHERE run_id = ?1 ORDER BY rowid`,
  selectProjection: `SELECT ${PROJECTIONS} FROM wuwe_tool_output_projections WHERE run_id = ?1 AND call_id = ?2 AND turn = ?3`,
  insertProjection: `INSERT INTO wuwe_tool_output_projections (${PROJECTIONS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
  selectApprovals: `SELECT ${APPROVALS} FROM wuwe_approvals WHERE run_id = ?1 ORDER BY rowid`,
  selectApproval: `SELECT ${APPROVALS} FROM wuwe_approvals WHERE run_id = ?1 AND call_id = ?2 AND turn = ?3`,
  insertApproval: `INSERT INTO wuwe_approvals (${APPROVALS}) VALUES (?1, ?2, ?3, ?4, 'pending', NULL, NULL, ?5, NULL, ?6, NULL)`,
  decideApproval:
    'UPDATE wuwe_approvals SET state = ?3, decided_by = ?4, reason = ?5, decided_at = ?6, decided_arguments_sha256 = ?8 WHERE run_id = ?1 AND call_id = ?2 AND turn = ?7',
  selectPendingApprovals: `SELECT ${APPROVALS} FROM wuwe_approvals WHERE run_id = ?1 AND state = 'pending' ORDER BY rowid`,
  selectChain: `SELECT ${CHAIN} FROM wuwe_record_chain WHERE run_id = ?1 ORDER BY seq`,
  insertChainEntry: `INSERT INTO wuwe_record_chain (run_id, seq, kind, subject, entity_sha256, source, key_id, digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
  setChainHead: 'UPDATE wuwe_runs SET chain_head = ?2, chain_length = ?3 WHERE run_id = ?1',
  selectLease: `SELECT ${LEASES} FROM wuwe_leases WHERE run_id = ?1`,
  acquireLease: `INSERT INTO wuwe_leases (${LEASES}) VALUES (?1, ?2, ?3)
    ON CONFLICT (run_id) DO UPDATE SET worker_id = excluded.worker_id, expires_at_ms = excluded.expires_at_ms
    WHERE wuwe_leases.worker_id = excluded.worker_id OR wuwe_leases.expires_at_ms <= ?4`,
  renewLease: 'UPDATE wuwe_leases SET expires_at_ms = ?3 WHERE run_id = ?1 AND worker_id = ?2',
  releaseLease: 'DELETE FROM wuwe_leases WHERE run_id = ?1 AND worker_id = ?2',
});
