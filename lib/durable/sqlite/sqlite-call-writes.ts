import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolCallIdentity, ToolCallRecord } from '../agent-run-record';
import { callDraft } from '../chain/chain-entities';
import { CallStartResult, CallWriteOptions, RunWriteOptions } from '../run-store';
import { RunStoreError } from '../run-store-error';
import {
  checkAdmission,
  checkIdempotentArguments,
  checkIdentity,
  checkSameCall,
  serializeOutcome,
} from '../rules/call-rules';
import { checkAttempts, checkTurn } from '../rules/value-rules';
import { admissionParameters, callStartParameters } from '../sql/run-store-parameters';
import { callFromRow } from '../stored-rows';
import { SqliteRunSession } from './sqlite-run-session';

// The calls of a SQLite run store: started, attempted, admitted, found by idempotency key. Each write holds the
// database's write lock, so a check and the insert after it see the same rows.

/** {@link RunStore.recordCallStarted} on SQLite: the call holding the call id or idempotency key, or a new one. */
export async function startSqliteCall(
  session: SqliteRunSession,
  runId: string,
  identity: ToolCallIdentity,
  options?: RunWriteOptions,
): Promise<CallStartResult> {
  const argumentsJson = checkIdentity(runId, identity);
  const turn = checkTurn(identity.turn);
  const statements = session.statements;
  return session.write({ runId, callId: identity.callId }, options, (chain) => {
    const existing =
      statements.select('selectCall', runId, identity.callId, turn)[0] ??
      (identity.idempotencyKey !== undefined
        ? statements.select('selectCallByKey', identity.idempotencyKey)[0]
        : undefined);
    if (existing) {
      const call = callFromRow(existing);
      checkSameCall(runId, call, identity);
      return { created: false, call };
    }
    statements.run('insertCall', ...callStartParameters(runId, identity, argumentsJson, session.now(), turn));
    const call = callFromRow(statements.select('selectCall', runId, identity.callId, turn)[0]);
    chain.push(callDraft('call_started', call));
    return { created: true, call };
  });
}

/** {@link RunStore.recordAttempt} on SQLite. */
export async function recordSqliteAttempt(
  session: SqliteRunSession,
  runId: string,
  callId: string,
  attempts: number,
  options?: CallWriteOptions,
): Promise<void> {
  checkAttempts(attempts);
  const turn = checkTurn(options?.turn);
  const statements = session.statements;
  await session.write({ runId, callId }, options, (chain) => {
    const row = statements.select('selectCall', runId, callId, turn)[0];
    if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
    if (row.status === 'admitted')
      throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
    statements.run('raiseAttempts', runId, callId, attempts, turn);
    chain.push(callDraft('call_attempted', callFromRow(statements.select('selectCall', runId, callId, turn)[0])));
  });
}

/** {@link RunStore.admitOutcome} on SQLite. */
export async function admitSqliteOutcome(
  session: SqliteRunSession,
  runId: string,
  callId: string,
  outcome: ToolOutcome,
  attempts: number,
  options?: CallWriteOptions,
): Promise<ToolCallRecord> {
  checkAttempts(attempts);
  const turn = checkTurn(options?.turn);
  const outcomeJson = serializeOutcome(runId, callId, outcome);
  const statements = session.statements;
  return session.write({ runId, callId }, options, (chain) => {
    const row = statements.select('selectCall', runId, callId, turn)[0];
    if (checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row);
    statements.run('admitCall', ...admissionParameters(runId, callId, outcomeJson, attempts, session.now(), turn));
    const call = callFromRow(statements.select('selectCall', runId, callId, turn)[0]);
    chain.push(callDraft('call_admitted', call));
    return call;
  });
}

/** {@link RunStore.findAdmittedByIdempotencyKey} on SQLite. */
export async function findSqliteAdmittedByKey(
  session: SqliteRunSession,
  idempotencyKey: string,
  argumentsSha256: string,
): Promise<ToolCallRecord | undefined> {
  const row = session.read({}, () => session.statements.select('selectCallByKey', idempotencyKey)[0]);
  if (!row) return undefined;
  const call = callFromRow(row);
  checkIdempotentArguments(call, argumentsSha256);
  return call.status === 'admitted' ? call : undefined;
}
