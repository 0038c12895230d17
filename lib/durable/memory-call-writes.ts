import { ToolOutcome } from '../outcome/tool-outcome';
import {
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
  ToolOutputProjectionRecord,
} from './agent-run-record';
import { ChainDraft } from './chain/chain-digest';
import { callDraft, projectionDraft } from './chain/chain-entities';
import { admitCallRow, checkedMemoryProjection, MemoryRunRows, startedCallRow } from './memory-run-rows';
import { checkAdmission, checkIdentity, checkSameCall, serializeOutcome } from './rules/call-rules';
import { callKey, checkAttempts, checkTurn } from './rules/value-rules';
import { CallStartResult } from './run-store';
import { RunStoreError } from './run-store-error';
import { callFromRow, CallRow, projectionFromRow } from './stored-rows';

// The call writes of a MemoryRunStore (start, attempts, admission, projection audit), on a run's rows whose fence
// the caller checked: each answers its result and the chain entries the store commits with it.

/** A call's changes and the chain entries they append (none when nothing changed). */
export interface MemoryCallWrite<T> {
  readonly result: T;
  readonly drafts: readonly ChainDraft[];
}

/** {@link RunStore.recordCallStarted} on a run's rows; `keys` are the store's calls by idempotency key. */
export function startMemoryCall(
  rows: MemoryRunRows,
  keys: Map<string, CallRow>,
  identity: ToolCallIdentity,
  now: string,
): MemoryCallWrite<CallStartResult> {
  const runId = rows.run.run_id;
  const argumentsJson = checkIdentity(runId, identity);
  const turn = checkTurn(identity.turn);
  const existing =
    rows.calls.get(callKey(turn, identity.callId)) ??
    (identity.idempotencyKey !== undefined ? keys.get(identity.idempotencyKey) : undefined);
  if (existing) {
    const call = callFromRow(existing);
    checkSameCall(runId, call, identity);
    return { result: { created: false, call }, drafts: [] };
  }
  const row = startedCallRow(runId, identity, argumentsJson, now, turn);
  rows.calls.set(callKey(turn, identity.callId), row);
  if (identity.idempotencyKey !== undefined) keys.set(identity.idempotencyKey, row);
  const call = callFromRow(row);
  return { result: { created: true, call }, drafts: [callDraft('call_started', call)] };
}

/** {@link RunStore.recordAttempt} on a run's rows (`attempts` checked by the caller, before the run is looked up). */
export function attemptMemoryCall(
  rows: MemoryRunRows,
  callId: string,
  attempts: number,
  turn: number | undefined,
): readonly ChainDraft[] {
  const runId = rows.run.run_id;
  const row = rows.calls.get(callKey(checkTurn(turn), callId));
  if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
  if (row.status === 'admitted')
    throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
  row.attempts = Math.max(Number(row.attempts), attempts);
  return [callDraft('call_attempted', callFromRow(row))];
}

/** {@link RunStore.admitOutcome} on a run's rows: the admitted call, and no entry when it was admitted before. */
export function admitMemoryOutcome(
  rows: MemoryRunRows,
  callId: string,
  admission: { readonly outcome: ToolOutcome; readonly attempts: number; readonly turn?: number },
  now: string,
): MemoryCallWrite<ToolCallRecord> {
  const runId = rows.run.run_id;
  checkAttempts(admission.attempts);
  const outcomeJson = serializeOutcome(runId, callId, admission.outcome);
  const row = rows.calls.get(callKey(checkTurn(admission.turn), callId));
  if (checkAdmission(runId, row && callFromRow(row), callId, outcomeJson))
    return { result: callFromRow(row!), drafts: [] };
  admitCallRow(row!, outcomeJson, admission.attempts, now);
  const call = callFromRow(row!);
  return { result: call, drafts: [callDraft('call_admitted', call)] };
}

/** {@link RunStore.recordProjection} on a run's rows: the audit, and no entry when the call had it already. */
export function auditMemoryProjection(
  rows: MemoryRunRows,
  projection: ToolOutputProjectionInput,
  now: string,
): MemoryCallWrite<ToolOutputProjectionRecord> {
  const runId = rows.run.run_id;
  const audit = checkedMemoryProjection(rows, projection, now);
  if (!audit.row) return { result: projectionFromRow(audit.stored, runId), drafts: [] };
  rows.projections.set(callKey(Number(audit.row.turn), projection.callId), audit.row);
  const record = projectionFromRow(audit.row, runId);
  return { result: record, drafts: [projectionDraft(record)] };
}
