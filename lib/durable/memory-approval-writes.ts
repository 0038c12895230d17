import { approvalDraft } from './chain/chain-entities';
import { MemoryCallWrite } from './memory-call-writes';
import { decideApprovalRow, MemoryRunRows, pendingApprovalRow } from './memory-run-rows';
import { approvalNotFound, checkApprovalRequest, checkDecision, checkedDecision } from './rules/approval-rules';
import { callKey, checkTurn, isoTime } from './rules/value-rules';
import { ApprovalDecision, ApprovalRequest } from './run-store';
import { ApprovalRow, approvalFromRow } from './stored-rows';

// The approval writes of a MemoryRunStore, on a run's rows whose fence the caller checked: each answers the approval's
// row (the store reads its record once it committed) and the chain entries the store commits with it; `clock` dates
// a change.

/** {@link RunStore.requestApproval} on a run's rows: the stored request again (no entry), or a new pending one. */
export function requestMemoryApproval(
  rows: MemoryRunRows,
  request: ApprovalRequest,
  clock: () => number,
): MemoryCallWrite<ApprovalRow> {
  const runId = rows.run.run_id;
  const turn = checkTurn(request.turn);
  const stored = rows.approvals.get(callKey(turn, request.callId));
  checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
  if (stored) return { result: stored, drafts: [] };
  const row = pendingApprovalRow(request, isoTime(clock), turn);
  rows.approvals.set(callKey(turn, request.callId), row);
  return { result: row, drafts: [approvalDraft('approval_requested', approvalFromRow(row))] };
}

/** {@link RunStore.decideApproval} on a run's rows: the decision, and no entry when the same one was stored. */
export function decideMemoryApproval(
  rows: MemoryRunRows,
  callId: string,
  decision: ApprovalDecision,
  turnOption: number | undefined,
  clock: () => number,
): MemoryCallWrite<ApprovalRow> {
  const runId = rows.run.run_id;
  decision = checkedDecision(runId, callId, decision);
  const turn = checkTurn(turnOption);
  const row = rows.approvals.get(callKey(turn, callId));
  if (row === undefined) throw approvalNotFound(runId, callId, turn, [...rows.approvals.values()]);
  if (!checkDecision(runId, callId, row && approvalFromRow(row), decision)) return { result: row, drafts: [] };
  decideApprovalRow(row, decision, isoTime(clock));
  return { result: row, drafts: [approvalDraft('approval_decided', approvalFromRow(row))] };
}
