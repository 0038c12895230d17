import { ToolCallIdentity, ToolOutputProjectionInput } from '../agent-run-record';
import { RecordChainEntry } from '../chain/record-chain';
import { ApprovalDecision, ApprovalRequest } from '../run-store';
import { decider } from '../rules/approval-rules';

// The parameters of the run-store statements that write (`RunStoreStatements`), in the order each statement
// documents: both SQL stores build them here, so a column added to a statement is added once.

/** The parameters of `insertCall`. */
export function callStartParameters(
  runId: string,
  identity: ToolCallIdentity,
  argumentsJson: string,
  startedAt: string,
  turn: number,
): unknown[] {
  return [
    runId,
    identity.callId,
    identity.toolName,
    identity.idempotencyKey ?? null,
    identity.attempts,
    identity.argumentsSha256,
    argumentsJson,
    startedAt,
    turn,
  ];
}

/** The parameters of `admitCall`. */
export function admissionParameters(
  runId: string,
  callId: string,
  outcomeJson: string,
  attempts: number,
  admittedAt: string,
  turn: number,
): unknown[] {
  return [runId, callId, outcomeJson, attempts, admittedAt, turn];
}

/** The parameters of `insertApproval`: a pending approval. */
export function approvalRequestParameters(
  runId: string,
  request: ApprovalRequest,
  requestedAt: string,
  turn: number,
): unknown[] {
  return [runId, request.callId, request.toolName, request.argumentsSha256, requestedAt, turn];
}

/** The parameters of `decideApproval`; throws `record_invalid` for a `decidedBy` that names no one. */
export function approvalDecisionParameters(
  runId: string,
  callId: string,
  decision: ApprovalDecision,
  decidedAt: string,
  turn: number,
): unknown[] {
  return [
    runId,
    callId,
    decision.approved ? 'approved' : 'denied',
    decider(decision),
    decision.reason ?? null,
    decidedAt,
    turn,
    decision.argumentsSha256,
  ];
}

/** The parameters of `insertProjection`; `content` locates the Tool message the audit describes, when known. */
export function projectionParameters(
  runId: string,
  projection: ToolOutputProjectionInput,
  reportJson: string,
  recordedAt: string,
  turn: number,
  content: { contentSha256?: string; messageIndex?: number },
): unknown[] {
  return [
    runId,
    projection.callId,
    projection.toolName,
    projection.projectedSha256,
    reportJson,
    recordedAt,
    turn,
    content.contentSha256 ?? null,
    content.messageIndex ?? null,
  ];
}

/** The parameters of `insertChainEntry` for one entry of a run's chain. */
export function chainEntryParameters(runId: string, entry: RecordChainEntry): unknown[] {
  return [
    runId,
    entry.index,
    entry.kind,
    entry.subject,
    entry.entitySha256,
    entry.source,
    entry.keyId ?? null,
    entry.digest,
  ];
}

/** The parameters of `setChainHead` once `entries` (not empty) follow a chain of `previousLength` entries. */
export function chainHeadParameters(
  runId: string,
  entries: readonly RecordChainEntry[],
  previousLength: number | string,
): unknown[] {
  return [runId, entries[entries.length - 1].digest, Number(previousLength) + entries.length];
}
