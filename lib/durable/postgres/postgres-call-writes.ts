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
import { RunStoreStatementRows } from '../sql/run-store-statements';
import { callFromRow } from '../stored-rows';
import { PostgresRunSession } from './postgres-run-session';

// The calls of a PostgreSQL run store: started, attempted, admitted, found by idempotency key.

/**
 * {@link RunStore.recordCallStarted} on PostgreSQL: one `INSERT ... ON CONFLICT DO NOTHING`, then, when it inserted
 * nothing, the call holding the call id or idempotency key is compared with the new start.
 */
export async function startPostgresCall(
  session: PostgresRunSession,
  runId: string,
  identity: ToolCallIdentity,
  options?: RunWriteOptions,
): Promise<CallStartResult> {
  const argumentsJson = checkIdentity(runId, identity);
  const turn = checkTurn(identity.turn);
  return session.write({ runId, callId: identity.callId }, options, async (client, chain) => {
    const values = callStartParameters(runId, identity, argumentsJson, session.now(), turn);
    const inserted = (await client.query<RunStoreStatementRows['selectCall']>(session.statements.insertCall, values))
      .rows[0];
    if (inserted) {
      const call = callFromRow(inserted);
      chain.push(callDraft('call_started', call));
      return { created: true, call };
    }
    const existing =
      (await session.select(client, 'selectCall', runId, identity.callId, turn))[0] ??
      (identity.idempotencyKey !== undefined
        ? (await session.select(client, 'selectCallByKey', identity.idempotencyKey))[0]
        : undefined);
    if (!existing)
      throw new RunStoreError('store_unavailable', 'A conflicting call vanished during the insert; retry', {
        runId,
        callId: identity.callId,
      });
    const call = callFromRow(existing);
    checkSameCall(runId, call, identity);
    return { created: false, call };
  });
}

/** {@link RunStore.recordAttempt} on PostgreSQL, with the call row locked. */
export async function recordPostgresAttempt(
  session: PostgresRunSession,
  runId: string,
  callId: string,
  attempts: number,
  options?: CallWriteOptions,
): Promise<void> {
  checkAttempts(attempts);
  const turn = checkTurn(options?.turn);
  await session.write({ runId, callId }, options, async (client, chain) => {
    const row = (await session.lockedRows(client, 'lockCall', runId, callId, turn))[0];
    if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
    if (row.status === 'admitted')
      throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
    await client.query(session.statements.raiseAttempts, [runId, callId, attempts, turn]);
    const raised = (await session.select(client, 'selectCall', runId, callId, turn))[0];
    chain.push(callDraft('call_attempted', callFromRow(raised)));
  });
}

/** {@link RunStore.admitOutcome} on PostgreSQL, with the call row locked. */
export async function admitPostgresOutcome(
  session: PostgresRunSession,
  runId: string,
  callId: string,
  outcome: ToolOutcome,
  attempts: number,
  options?: CallWriteOptions,
): Promise<ToolCallRecord> {
  checkAttempts(attempts);
  const turn = checkTurn(options?.turn);
  const outcomeJson = serializeOutcome(runId, callId, outcome);
  return session.write({ runId, callId }, options, async (client, chain) => {
    const row = (await session.lockedRows(client, 'lockCall', runId, callId, turn))[0];
    if (checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row);
    const updated = await client.query<RunStoreStatementRows['selectCall']>(
      session.statements.admitCall,
      admissionParameters(runId, callId, outcomeJson, attempts, session.now(), turn),
    );
    const call = callFromRow(updated.rows[0]);
    chain.push(callDraft('call_admitted', call));
    return call;
  });
}

/** {@link RunStore.findAdmittedByIdempotencyKey} on PostgreSQL. */
export async function findPostgresAdmittedByKey(
  session: PostgresRunSession,
  idempotencyKey: string,
  argumentsSha256: string,
): Promise<ToolCallRecord | undefined> {
  const row = (await session.query({}, 'selectCallByKey', [idempotencyKey]))[0] as
    RunStoreStatementRows['selectCallByKey'] | undefined;
  if (!row) return undefined;
  const call = callFromRow(row);
  checkIdempotentArguments(call, argumentsSha256);
  return call.status === 'admitted' ? call : undefined;
}
