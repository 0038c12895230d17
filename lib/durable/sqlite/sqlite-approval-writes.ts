import { ApprovalRecord } from '../agent-run-record';
import { approvalDraft } from '../chain/chain-entities';
import { ApprovalDecision, ApprovalRequest, CallWriteOptions, RunWriteOptions } from '../run-store';
import { approvalNotFound, checkApprovalRequest, checkDecision, checkedDecision } from '../rules/approval-rules';
import { checkTurn } from '../rules/value-rules';
import { approvalDecisionParameters, approvalRequestParameters } from '../sql/run-store-parameters';
import { approvalFromRow } from '../stored-rows';
import { SqliteRunSession } from './sqlite-run-session';

/** {@link RunStore.requestApproval} on SQLite. */
export async function requestSqliteApproval(
  session: SqliteRunSession,
  runId: string,
  request: ApprovalRequest,
  options?: RunWriteOptions,
): Promise<ApprovalRecord> {
  const turn = checkTurn(request.turn);
  const statements = session.statements;
  return session.write({ runId, callId: request.callId }, options, (chain) => {
    const stored = statements.select('selectApproval', runId, request.callId, turn)[0];
    checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
    if (stored) return approvalFromRow(stored);
    statements.run('insertApproval', ...approvalRequestParameters(runId, request, session.now(), turn));
    const approval = approvalFromRow(statements.select('selectApproval', runId, request.callId, turn)[0]);
    chain.push(approvalDraft('approval_requested', approval));
    return approval;
  });
}

/** {@link RunStore.decideApproval} on SQLite. */
export async function decideSqliteApproval(
  session: SqliteRunSession,
  runId: string,
  callId: string,
  decision: ApprovalDecision,
  options?: CallWriteOptions,
): Promise<ApprovalRecord> {
  decision = checkedDecision(runId, callId, decision);
  const turn = checkTurn(options?.turn);
  const statements = session.statements;
  return session.write({ runId, callId }, options, (chain) => {
    const stored = statements.select('selectApproval', runId, callId, turn)[0];
    if (stored === undefined) throw approvalNotFound(runId, callId, turn, statements.select('selectApprovals', runId));
    if (!checkDecision(runId, callId, approvalFromRow(stored), decision)) return approvalFromRow(stored);
    statements.run('decideApproval', ...approvalDecisionParameters(runId, callId, decision, session.now(), turn));
    const approval = approvalFromRow(statements.select('selectApproval', runId, callId, turn)[0]);
    chain.push(approvalDraft('approval_decided', approval));
    return approval;
  });
}
