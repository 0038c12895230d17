import { ApprovalDecision, ApprovalRequest } from '../run-store';
import { ApprovalRecord } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';
import { checkId, checkTurn, checkWellFormed, isSha256Hex } from './value-rules';

/** The rules of approval requests and decisions that every {@link RunStore} applies the same way. */

/** Validates an approval request; throws `approval_mismatch` when it differs from the stored one. */
export function checkApprovalRequest(
  runId: string,
  request: ApprovalRequest,
  stored: ApprovalRecord | undefined,
): void {
  checkId(request.callId, 'callId');
  checkTurn(request.turn);
  checkId(request.toolName, 'toolName');
  if (!isSha256Hex(request.argumentsSha256))
    throw new RunStoreError('record_invalid', 'argumentsSha256 must be lowercase hex SHA-256', { runId });
  if (stored && (stored.toolName !== request.toolName || stored.argumentsSha256 !== request.argumentsSha256)) {
    throw new RunStoreError(
      'approval_mismatch',
      'An approval for this call was requested for another tool or other arguments',
      { runId, callId: request.callId },
    );
  }
}

/**
 * The `approval_not_found` error of a decision for a call (`turn`, `callId`) without an approval: it names the
 * turns whose approvals have that call id (`approvals` are the run's, in any order), as `approvalTurns` and in the
 * message.
 */
export function approvalNotFound(
  runId: string,
  callId: string,
  turn: number,
  approvals: readonly { call_id: string; turn: number | string }[],
): RunStoreError {
  const approvalTurns = [
    ...new Set(approvals.filter((row) => row.call_id === callId).map((row) => Number(row.turn))),
  ].sort((a, b) => a - b);
  const others =
    approvalTurns.length === 0
      ? 'no turn of the run has an approval for this call id'
      : `approvals for this call id exist in turn(s) ${approvalTurns.join(', ')}: pass that turn`;
  return new RunStoreError('approval_not_found', `No approval was requested for this call in turn ${turn}; ${others}`, {
    runId,
    callId,
    turn,
    approvalTurns,
  });
}

/**
 * A copy of a decision with every field read once and checked: `approved` a boolean (a string such as `'false'` is
 * no decision, never a truthy approval), `toolName` and `argumentsSha256` strings, `decidedBy` absent or a non-empty
 * string, `reason` absent or a string. Throws `record_invalid` for anything else (a getter that throws included), and
 * nothing is written.
 */
export function checkedDecision(runId: string, callId: string, decision: unknown): ApprovalDecision {
  const invalid = (why: string): RunStoreError =>
    new RunStoreError('record_invalid', `The approval decision is malformed: ${why}; nothing was decided`, {
      runId,
      callId,
    });
  if (typeof decision !== 'object' || decision === null) throw invalid('it is not an object');
  let fields: Record<string, unknown>;
  try {
    const { approved, toolName, argumentsSha256, decidedBy, reason } = decision as Record<string, unknown>;
    fields = { approved, toolName, argumentsSha256, decidedBy, reason };
  } catch (error) {
    throw invalid(`its fields cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const { approved, toolName, argumentsSha256, decidedBy, reason } = fields;
  if (typeof approved !== 'boolean') throw invalid('approved must be true or false');
  if (typeof toolName !== 'string' || typeof argumentsSha256 !== 'string')
    throw invalid('toolName and argumentsSha256 must be strings');
  if (decidedBy !== undefined && decidedBy !== null && (typeof decidedBy !== 'string' || decidedBy === ''))
    throw invalid('decidedBy must be a non-empty string');
  if (typeof decidedBy === 'string') checkWellFormed(decidedBy, 'decidedBy');
  checkId(callId, 'callId');
  if (reason !== undefined && reason !== null && typeof reason !== 'string') throw invalid('reason must be text');
  return Object.freeze({
    approved,
    toolName,
    argumentsSha256,
    ...(typeof decidedBy === 'string' ? { decidedBy } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
  });
}

/**
 * Checks a decision against the stored approval. Returns true when it must be written, false when the same
 * decision is already stored. Throws `approval_not_found` or `approval_mismatch`.
 */
export function checkDecision(
  runId: string,
  callId: string,
  stored: ApprovalRecord | undefined,
  decision: ApprovalDecision,
): boolean {
  if (!stored)
    throw new RunStoreError('approval_not_found', 'No approval was requested for this call', { runId, callId });
  if (stored.toolName !== decision.toolName || stored.argumentsSha256 !== decision.argumentsSha256) {
    throw new RunStoreError(
      'approval_mismatch',
      'The decision names another tool or other arguments than the request',
      { runId, callId },
    );
  }
  if (stored.state === 'pending') return true;
  if (stored.state === (decision.approved ? 'approved' : 'denied')) return false;
  throw new RunStoreError('approval_mismatch', `The approval was already ${stored.state}`, { runId, callId });
}

/** Who a decision names; a decision without a principal is recorded as `unattributed` (never as no one). */
export function decider(decision: ApprovalDecision): string {
  const by = decision.decidedBy;
  if (by === undefined || by === null) return 'unattributed';
  if (typeof by !== 'string' || by === '')
    throw new RunStoreError('record_invalid', 'decidedBy must be a non-empty string');
  return by;
}
