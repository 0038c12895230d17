import { AgentRunStatus, ToolCallIdentity, ToolOutputProjectionInput } from './agent-run-record';
import { RecordChainEntry } from './chain/record-chain';
import { ApprovalDecision, ApprovalRequest } from './run-store';
import { decider } from './rules/approval-rules';
import { checkProjection, checkSameProjection, projectedContent } from './rules/projection-rules';
import { callKey, checkTurn } from './rules/value-rules';
import { ApprovalRow, callFromRow, CallRow, ChainRow, LeaseRow, ProjectionRow, RunRow } from './stored-rows';

// The rows a MemoryRunStore keeps for a run: the same rows the SQL stores read back, so the three assemble
// records with the same code.

/** One run of a {@link MemoryRunStore}; calls, projections and approvals are keyed by {@link callKey}. */
export interface MemoryRunRows {
  run: RunRow;
  messages: string[];
  calls: Map<string, CallRow>;
  projections: Map<string, ProjectionRow>;
  approvals: Map<string, ApprovalRow>;
  chain: ChainRow[];
  lease?: LeaseRow;
}

/** The rows of a new run, created at `now`, with no chain yet. */
export function newMemoryRun(
  run: { runId: string; status: AgentRunStatus; metadataJson: string | null; messageTexts: readonly string[] },
  now: string,
): MemoryRunRows {
  return {
    run: {
      run_id: run.runId,
      status: run.status,
      metadata_json: run.metadataJson,
      created_at: now,
      updated_at: now,
      fencing_token: 0,
      chain_head: null,
      chain_length: 0,
    },
    messages: [...run.messageTexts],
    calls: new Map(),
    projections: new Map(),
    approvals: new Map(),
    chain: [],
  };
}

/** The row of a call started at `startedAt`. */
export function startedCallRow(
  runId: string,
  identity: ToolCallIdentity,
  argumentsJson: string,
  startedAt: string,
  turn: number,
): CallRow {
  return {
    run_id: runId,
    call_id: identity.callId,
    tool_name: identity.toolName,
    idempotency_key: identity.idempotencyKey ?? null,
    attempts: identity.attempts,
    arguments_sha256: identity.argumentsSha256,
    arguments_json: argumentsJson,
    status: 'started',
    outcome_json: null,
    started_at: startedAt,
    admitted_at: null,
    turn,
  };
}

/** The row of an approval requested at `requestedAt`, pending. */
export function pendingApprovalRow(request: ApprovalRequest, requestedAt: string, turn: number): ApprovalRow {
  return {
    call_id: request.callId,
    tool_name: request.toolName,
    arguments_sha256: request.argumentsSha256,
    state: 'pending',
    decided_by: null,
    reason: null,
    requested_at: requestedAt,
    decided_at: null,
    turn,
    decided_arguments_sha256: null,
  };
}

/**
 * Checks a projection audit against the run's rows; `row` is the one to store, absent when the same audit is already
 * stored. `texts` are the messages written with it, to follow the run's current ones.
 */
export function checkedMemoryProjection(
  rows: MemoryRunRows,
  projection: ToolOutputProjectionInput,
  recordedAt: string,
  texts: readonly string[] = [],
): { row?: ProjectionRow; stored: ProjectionRow } {
  const runId = rows.run.run_id;
  const turn = checkTurn(projection.turn);
  const call = rows.calls.get(callKey(turn, projection.callId));
  const reportJson = checkProjection(runId, projection, call && callFromRow(call));
  const stored = rows.projections.get(callKey(turn, projection.callId));
  if (stored) {
    checkSameProjection(runId, stored, projection, reportJson);
    return { stored };
  }
  const content = projectedContent(texts, rows.messages.length, projection.callId);
  const row: ProjectionRow = {
    call_id: projection.callId,
    tool_name: projection.toolName,
    projected_sha256: projection.projectedSha256,
    report_json: reportJson,
    recorded_at: recordedAt,
    turn,
    content_sha256: content.contentSha256 ?? null,
    message_index: content.messageIndex ?? null,
  };
  return { row, stored: row };
}

/** The stored row of a chain entry. */
export function chainRowOf(entry: RecordChainEntry): ChainRow {
  return {
    seq: entry.index,
    kind: entry.kind,
    subject: entry.subject,
    entity_sha256: entry.entitySha256,
    source: entry.source,
    key_id: entry.keyId ?? null,
    digest: entry.digest,
  };
}

/** Admits `outcomeJson` on a started call's row at `admittedAt`; the attempt count never goes down. */
export function admitCallRow(row: CallRow, outcomeJson: string, attempts: number, admittedAt: string): void {
  row.status = 'admitted';
  row.outcome_json = outcomeJson;
  row.attempts = Math.max(Number(row.attempts), attempts);
  row.admitted_at = admittedAt;
}

/** Writes a checked decision on a pending approval's row; throws `record_invalid` for a `decidedBy` naming no one. */
export function decideApprovalRow(row: ApprovalRow, decision: ApprovalDecision, decidedAt: string): void {
  row.state = decision.approved ? 'approved' : 'denied';
  row.decided_by = decider(decision);
  row.reason = decision.reason ?? null;
  row.decided_at = decidedAt;
  row.decided_arguments_sha256 = decision.argumentsSha256;
}

/** Cancels the run's pending approvals; returns their rows, in request order. */
export function cancelPendingApprovals(rows: MemoryRunRows): ApprovalRow[] {
  const pending = [...rows.approvals.values()].filter((approval) => approval.state === 'pending');
  for (const approval of pending) approval.state = 'cancelled';
  return pending;
}
