import type { RunStoreStatements } from '../sql/run-store-statements';
import { columnList } from '../store-layout';

const RUNS = columnList('wuwe_runs');
const CALLS = columnList('wuwe_tool_calls');
const PROJECTIONS = columnList('wuwe_tool_output_projections');
const APPROVALS = columnList('wuwe_approvals');
const LEASES = columnList('wuwe_leases');
const CHAIN = 'seq, kind, subject, entity_sha256, source, key_id, digest';

/** PostgreSQL's statements beyond the shared ones: row locks and a bulk message insert. */
export interface PostgresStatements extends RunStoreStatements {
  /** (run_id): locks the run row for the rest of the transaction; no row when the run is missing. */
  readonly lockRun: string;
  /** (run_id, after, message_json[]): inserts the messages with sequence numbers after `after`. */
  readonly insertMessages: string;
  /** (run_id, call_id, turn) -> CallRow, locked. */
  readonly lockCall: string;
  /** (run_id, call_id, turn) -> ApprovalRow, locked. */
  readonly lockApproval: string;
  /**
   * (run_id, seq[], kind[], subject[], entity_sha256[], source[], key_id[], digest[], chain_head, chain_length):
   * inserts chain entries and moves the run's chain head, in one statement.
   */
  readonly appendChainEntries: string;
}

/**
 * The SQL of {@link PostgresRunStore} for the tables in `schema` (already quoted). Rows come back in the
 * order of their `seq` identity column; writes that return a row use `RETURNING`.
 */
export function postgresStatements(schema: string): PostgresStatements {
  const runs = `${schema}.wuwe_runs`;
  const messages = `${schema}.wuwe_messages`;
  const calls = `${schema}.wuwe_tool_calls`;
  const projections = `${schema}.wuwe_tool_output_projections`;
  const approvals = `${schema}.wuwe_approvals`;
  const leases = `${schema}.wuwe_leases`;
  const chain = `${schema}.wuwe_record_chain`;
  return Object.freeze({
    insertRun: `INSERT INTO ${runs} (${RUNS}) VALUES ($1, $2, $3, $4, $4, 0, NULL, 0) ON CONFLICT (run_id) DO NOTHING
      RETURNING ${RUNS}`,
    selectRun: `SELECT ${RUNS} FROM ${runs} WHERE run_id = $1`,
    listRuns: `SELECT ${RUNS} FROM ${runs} ORDER BY seq`,
    listRunsByStatus: `SELECT ${RUNS} FROM ${runs} WHERE status = $1 ORDER BY seq`,
    touchRun: `UPDATE ${runs} SET updated_at = $2 WHERE run_id = $1 RETURNING fencing_token, chain_head, chain_length`,
    raiseFencingToken: `UPDATE ${runs} SET fencing_token = fencing_token + 1 WHERE run_id = $1`,
    cancelPendingApprovals: `UPDATE ${approvals} SET state = 'cancelled' WHERE run_id = $1 AND state = 'pending'`,
    updateStatus: `UPDATE ${runs} SET status = $2 WHERE run_id = $1 RETURNING ${RUNS}`,
    lockRun: `SELECT 1 FROM ${runs} WHERE run_id = $1 FOR UPDATE`,
    selectMessages: `SELECT message_json FROM ${messages} WHERE run_id = $1 ORDER BY seq`,
    lastMessageSeq: `SELECT COALESCE(MAX(seq), 0) AS last FROM ${messages} WHERE run_id = $1`,
    deleteMessages: `DELETE FROM ${messages} WHERE run_id = $1`,
    insertMessages: `INSERT INTO ${messages} (run_id, seq, message_json)
      SELECT $1, $2 + item.ordinality, item.text FROM unnest($3::text[]) WITH ORDINALITY AS item(text, ordinality)`,
    // DO NOTHING covers both unique constraints, (run_id, turn, call_id) and idempotency_key, and waits for a
    // concurrent insert of the same key to commit or roll back.
    insertCall: `INSERT INTO ${calls} (${CALLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, 'started', NULL, $8, NULL, $9)
      ON CONFLICT DO NOTHING RETURNING ${CALLS}`,
    selectCalls: `SELECT ${CALLS} FROM ${calls} WHERE run_id = $1 ORDER BY seq`,
    selectCall: `SELECT ${CALLS} FROM ${calls} WHERE run_id = $1 AND call_id = $2 AND turn = $3`,
    lockCall: `SELECT ${CALLS} FROM ${calls} WHERE run_id = $1 AND call_id = $2 AND turn = $3 FOR UPDATE`,
    selectCallByKey: `SELECT ${CALLS} FROM ${calls} WHERE idempotency_key = $1`,
    raiseAttempts: `UPDATE ${calls} SET attempts = GREATEST(attempts, $3) WHERE run_id = $1 AND call_id = $2 AND turn = $4`,
    admitCall: `UPDATE ${calls} SET status = 'admitted', outcome_json = $3, attempts = GREATEST(attempts, $4), admitted_at = $5
      WHERE run_id = $1 AND call_id = $2 AND turn = $6 RETURNING ${CALLS}`,
    selectProjections: `SELECT ${PROJECTIONS} FROM ${projections} WHERE run_id = $1 ORDER BY seq`,
    selectProjection: `SELECT ${PROJECTIONS} FROM ${projections} WHERE run_id = $1 AND call_id = $2 AND turn = $3`,
    insertProjection: `INSERT INTO ${projections} (${PROJECTIONS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${PROJECTIONS}`,
    selectApprovals: `SELECT ${APPROVALS} FROM ${approvals} WHERE run_id = $1 ORDER BY seq`,
    selectApproval: `SELECT ${APPROVALS} FROM ${approvals} WHERE run_id = $1 AND call_id = $2 AND turn = $3`,
    lockApproval: `SELECT ${APPROVALS} FROM ${approvals} WHERE run_id = $1 AND call_id = $2 AND turn = $3 FOR UPDATE`,
    insertApproval: `INSERT INTO ${approvals} (${APPROVALS}) VALUES ($1, $2, $3, $4, 'pending', NULL, NULL, $5, NULL, $6, NULL) RETURNING ${APPROVALS}`,
    decideApproval: `UPDATE ${approvals} SET state = $3, decided_by = $4, reason = $5, decided_at = $6, decided_arguments_sha256 = $8
      WHERE run_id = $1 AND call_id = $2 AND turn = $7 RETURNING ${APPROVALS}`,
    selectPendingApprovals: `SELECT ${APPROVALS} FROM ${approvals} WHERE run_id = $1 AND state = 'pending' ORDER BY seq`,
    selectChain: `SELECT ${CHAIN} FROM ${chain} WHERE run_id = $1 ORDER BY seq`,
    insertChainEntry: `INSERT INTO ${chain} (run_id, seq, kind, subject, entity_sha256, source, key_id, digest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    setChainHead: `UPDATE ${runs} SET chain_head = $2, chain_length = $3 WHERE run_id = $1`,
    appendChainEntries: `WITH inserted AS (INSERT INTO ${chain} (run_id, ${CHAIN})
        SELECT $1, entry.* FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
          $8::text[]) AS entry)
      UPDATE ${runs} SET chain_head = $9, chain_length = $10 WHERE run_id = $1`,
    selectLease: `SELECT ${LEASES} FROM ${leases} WHERE run_id = $1`,
    acquireLease: `INSERT INTO ${leases} AS lease (${LEASES}) VALUES ($1, $2, $3)
      ON CONFLICT (run_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, expires_at_ms = EXCLUDED.expires_at_ms
      WHERE lease.worker_id = EXCLUDED.worker_id OR lease.expires_at_ms <= $4
      RETURNING run_id`,
    renewLease: `UPDATE ${leases} SET expires_at_ms = $3 WHERE run_id = $1 AND worker_id = $2 RETURNING run_id`,
    releaseLease: `DELETE FROM ${leases} WHERE run_id = $1 AND worker_id = $2 RETURNING run_id`,
  });
}
