import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/**
 * Stable codes of {@link RunStoreError}.
 *
 * - `store_corrupt`: the file or database is not a readable wuwe run store (random bytes, missing tables).
 * - `store_foreign`: the SQLite file belongs to another application (its tables, no wuwe schema).
 * - `store_empty`: a store opened read-only holds no wuwe run store yet (a 0-byte file, a schema without the tables).
 * - `schema_version_mismatch`: the store or record carries a schema version this build cannot read.
 * - `store_unavailable`: the database could not be reached, or the connection was lost mid-transaction.
 * - `store_failed`: the database driver failed in another way (see `cause`).
 * - `store_closed`: the store was used after `close()`.
 * - `record_invalid`: a stored or imported record does not have the shape of an {@link AgentRunRecord}, or an
 *   approval is `approved` or `denied` without its decision (decider, time, arguments hash).
 * - `record_tampered`: a stored record does not match its hash chain (an entry or a row was edited, removed,
 *   inserted or moved outside the store); `entryIndex`, `entryKind` and `entrySubject` name the first bad entry.
 * - `record_key_missing`: a stored record is signed with a record key the store was not given (`recordKeyId` names
 *   it): it cannot be verified, so it is not used; open the store with that key in its `recordKey` ring.
 * - `run_exists`, `run_not_found`: the run id is already taken, or unknown.
 * - `call_not_found`, `call_not_admitted`: the tool call was never started, or has no admitted outcome yet.
 * - `call_conflict`: a call id was started again with another tool name, arguments or idempotency key.
 * - `invalid_outcome`: the value to admit is not a JSON-serializable {@link ToolOutcome}.
 * - `outcome_conflict`: a different outcome was admitted for a call that already has one.
 * - `idempotency_conflict`: an idempotency key was presented again with different arguments.
 * - `projection_conflict`: a call id was bound to different projection data.
 * - `approval_not_found`: no approval was requested for the call in the turn named; `approvalTurns` lists the
 *   turns that do have an approval for that call id (a model may reuse `call_0` in every turn).
 * - `approval_mismatch`: an approval request or decision does not match the call it names.
 * - `lease_held`: another worker holds the run's lease.
 * - `budget_key_not_found`: a reservation names a budget key whose limits were never set (`setKeyBudget`).
 */
export type RunStoreErrorCode =
  | 'store_corrupt'
  | 'store_foreign'
  | 'store_empty'
  | 'schema_version_mismatch'
  | 'store_unavailable'
  | 'store_failed'
  | 'store_closed'
  | 'record_invalid'
  | 'record_tampered'
  | 'record_key_missing'
  | 'run_exists'
  | 'run_not_found'
  | 'call_not_found'
  | 'call_not_admitted'
  | 'call_conflict'
  | 'invalid_outcome'
  | 'outcome_conflict'
  | 'idempotency_conflict'
  | 'projection_conflict'
  | 'approval_not_found'
  | 'approval_mismatch'
  | 'lease_held'
  | 'budget_key_not_found';

/** Structured context of a {@link RunStoreError}. */
export interface RunStoreErrorDetails {
  /** The run concerned, when there is one. */
  readonly runId?: string;
  /** The tool call concerned, when there is one. */
  readonly callId?: string;
  /** The turn of the call concerned, when there is one. */
  readonly turn?: number;
  /** For `approval_not_found`: the turns of the run that have an approval for the call id, in order. */
  readonly approvalTurns?: readonly number[];
  /** For `record_tampered`: the index of the first bad chain entry (the chain's length for a part with no entry). */
  readonly entryIndex?: number;
  /** For `record_tampered`: the kind of that entry. */
  readonly entryKind?: string;
  /** For `record_tampered`: the part of the record it concerns, e.g. `call:1:call_0`. */
  readonly entrySubject?: string;
  /** For `record_key_missing`: the id of the key the record is signed with. */
  readonly recordKeyId?: string;
  /** The underlying driver error. */
  readonly cause?: unknown;
}

const RUN_STORE_ERROR_MARKER = Symbol.for('wuwe.error.RunStoreError');

/**
 * Error of a {@link RunStore}. Branch on `code`; the message says what was wrong and with which run or call.
 * Nothing is written when a store method throws one: every mutation runs in one transaction.
 */
export class RunStoreError extends WuweError<RunStoreErrorCode> {
  private readonly [RUN_STORE_ERROR_MARKER] = true;

  /** True when `value` is a RunStoreError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is RunStoreError {
    return hasErrorMarker(value, RUN_STORE_ERROR_MARKER);
  }

  /** The run concerned, when there is one. */
  readonly runId?: string;
  /** The tool call concerned, when there is one. */
  readonly callId?: string;
  /** The turn of the call concerned, when there is one. */
  readonly turn?: number;
  /** For `approval_not_found`: the turns that have an approval for the call id. */
  readonly approvalTurns?: readonly number[];
  /** For `record_tampered`: the index of the first bad chain entry. */
  readonly entryIndex?: number;
  /** For `record_tampered`: its kind. */
  readonly entryKind?: string;
  /** For `record_tampered`: the part of the record it concerns. */
  readonly entrySubject?: string;
  /** For `record_key_missing`: the id of the key the record is signed with. */
  readonly recordKeyId?: string;

  constructor(code: RunStoreErrorCode, message: string, details: RunStoreErrorDetails = {}) {
    const where = [
      details.runId && `run ${details.runId}`,
      details.turn !== undefined && `turn ${details.turn}`,
      details.callId && `call ${details.callId}`,
    ]
      .filter(Boolean)
      .join(', ');
    super(
      code,
      where ? `${message} (${where})` : message,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    if (details.runId !== undefined) this.runId = details.runId;
    if (details.callId !== undefined) this.callId = details.callId;
    if (details.turn !== undefined) this.turn = details.turn;
    if (details.approvalTurns !== undefined) this.approvalTurns = details.approvalTurns;
    if (details.entryIndex !== undefined) this.entryIndex = details.entryIndex;
    if (details.entryKind !== undefined) this.entryKind = details.entryKind;
    if (details.entrySubject !== undefined) this.entrySubject = details.entrySubject;
    if (details.recordKeyId !== undefined) this.recordKeyId = details.recordKeyId;
  }
}
