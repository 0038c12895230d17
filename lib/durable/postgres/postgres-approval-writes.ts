import { ApprovalRecord } from '../agent-run-record';
import { approvalDraft } from '../chain/chain-entities';
import { ApprovalDecision, ApprovalRequest, CallWriteOptions, RunWriteOptions } from '../run-store';
import { approvalNotFound, checkApprovalRequest, checkDecision, checkedDecision } from '../rules/approval-rules';
import { checkTurn } from '../rules/value-rules';
import { approvalDecisionParameters, approvalRequestParameters } from '../sql/run-store-parameters';
import { RunStoreStatementRows } from '../sql/run-store-statements';
import { approvalFromRow } from '../stored-rows';
import { PostgresRunSession } from './postgres-run-session';

/** {@link RunStore.requestApproval} on PostgreSQL, with the run row locked. */
export async function requestPostgresApproval(
  session: PostgresRunSession,
  runId: string,
  request: ApprovalRequest,
  options?: RunWriteOptions,
): Promise<ApprovalRecord> {
  const turn = checkTurn(request.turn);
  return session.write({ runId, callId: request.callId }, options, async (client, chain) => {
    await session.lockRun(client, runId);
    const stored = (await session.select(client, 'selectApproval', runId, request.callId, turn))[0];
    checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
    if (stored) return approvalFromRow(stored);
    const inserted = await client.query<RunStoreStatementRows['selectApproval']>(
      session.statements.insertApproval,
      approvalRequestParameters(runId, request, session.now(), turn),
    );
    const approval = approvalFromRow(inserted.rows[0]);
    chain.push(approvalDraft('approval_requested', approval));
    return approval;
  });
}

/** {@link RunStore.decideApproval} on PostgreSQL, with the approval row locked. */
export async function decidePostgresApproval(
  session: PostgresRunSession,
  runId: string,
  callId: string,
  decision: ApprovalDecision,
  options?: CallWriteOptions,
): Promise<ApprovalRecord> {
  decision = checkedDecision(runId, callId, decision);
  const turn = checkTurn(options?.turn);
  return session.write({ runId, callId }, options, async (client, chain) => {
    const stored = (await session.lockedRows(client, 'lockApproval', runId, callId, turn))[0];
    if (stored === undefined)
      throw approvalNotFound(runId, callId, turn, await session.select(client, 'selectApprovals', runId));
    if (!checkDecision(runId, callId, approvalFromRow(stored), decision)) return approvalFromRow(stored);
    const updated = await client.query<RunStoreStatementRows['selectApproval']>(
      session.statements.decideApproval,
      approvalDecisionParameters(runId, callId, decision, session.now(), turn),
    );
    const approval = approvalFromRow(updated.rows[0]);
    chain.push(approvalDraft('approval_decided', approval));
    return approval;
  });
}
