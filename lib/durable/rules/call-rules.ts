import { isToolOutcome, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolCallIdentity, ToolCallRecord } from '../agent-run-record';
import { canonicalJson, sha256Hex } from '../canonical-arguments';
import { RunStoreError } from '../run-store-error';
import { checkAttempts, checkId, checkTurn, isSha256Hex } from './value-rules';

/** The rules of started calls and admitted outcomes that every {@link RunStore} applies the same way. */

/**
 * Validates a call identity and returns the canonical JSON of its arguments. Throws `record_invalid` when a
 * field is missing or the hash is not the canonical hash of the arguments.
 */
export function checkIdentity(runId: string, identity: ToolCallIdentity): string {
  checkId(identity.callId, 'callId');
  checkTurn(identity.turn);
  checkId(identity.toolName, 'toolName');
  if (identity.idempotencyKey !== undefined) checkId(identity.idempotencyKey, 'idempotencyKey');
  checkAttempts(identity.attempts);
  const argumentsJson = canonicalJson(identity.arguments);
  if (!isSha256Hex(identity.argumentsSha256) || sha256Hex(argumentsJson) !== identity.argumentsSha256) {
    throw new RunStoreError('record_invalid', 'argumentsSha256 is not the canonical SHA-256 of the arguments', {
      runId,
      callId: identity.callId,
    });
  }
  return argumentsJson;
}

/**
 * Compares a new start with the call already holding its call id or idempotency key. Returns normally when
 * they are the same call; throws `idempotency_conflict` or `call_conflict` otherwise.
 */
export function checkSameCall(runId: string, existing: ToolCallRecord, identity: ToolCallIdentity): void {
  const key = identity.idempotencyKey;
  if (key !== undefined && existing.idempotencyKey === key && existing.argumentsSha256 !== identity.argumentsSha256) {
    throw new RunStoreError(
      'idempotency_conflict',
      `Idempotency key '${key}' was already used with different arguments`,
      { runId, callId: identity.callId },
    );
  }
  const sameCall =
    existing.runId === runId && existing.callId === identity.callId && existing.turn === checkTurn(identity.turn);
  if (!sameCall && key !== undefined && existing.idempotencyKey === key && existing.toolName === identity.toolName)
    return;
  if (
    sameCall &&
    existing.toolName === identity.toolName &&
    existing.argumentsSha256 === identity.argumentsSha256 &&
    existing.idempotencyKey === key
  )
    return;
  throw new RunStoreError(
    'call_conflict',
    `Call was already recorded with another tool, arguments or idempotency key`,
    { runId, callId: identity.callId },
  );
}

/** Throws `idempotency_conflict` when the admitted call bound to a key has a different arguments hash. */
export function checkIdempotentArguments(call: ToolCallRecord, argumentsSha256: string): void {
  if (call.argumentsSha256 !== argumentsSha256) {
    throw new RunStoreError(
      'idempotency_conflict',
      `Idempotency key '${String(call.idempotencyKey)}' was already used with different arguments`,
      {
        runId: call.runId,
        callId: call.callId,
      },
    );
  }
}

/** The JSON text an outcome is admitted as. Throws `invalid_outcome` for a non-outcome or unserializable value. */
export function serializeOutcome(runId: string, callId: string, outcome: ToolOutcome): string {
  if (!isToolOutcome(outcome))
    throw new RunStoreError('invalid_outcome', 'The value to admit is not a tool outcome', { runId, callId });
  try {
    return JSON.stringify(outcome);
  } catch (error) {
    throw new RunStoreError('invalid_outcome', `The outcome is not JSON-serializable: ${(error as Error).message}`, {
      runId,
      callId,
      cause: error,
    });
  }
}

/** True when two admitted JSON texts are the same outcome (same text, or same canonical JSON). */
export function sameOutcomeJson(stored: string, next: string): boolean {
  if (stored === next) return true;
  try {
    return canonicalJson(JSON.parse(stored)) === canonicalJson(JSON.parse(next));
  } catch {
    return false;
  }
}

/** Admission checks on the call found: returns true when an equal outcome is already admitted (a no-op). */
export function checkAdmission(
  runId: string,
  call: ToolCallRecord | undefined,
  callId: string,
  outcomeJson: string,
): call is ToolCallRecord {
  if (!call) throw new RunStoreError('call_not_found', 'No started call to admit an outcome for', { runId, callId });
  if (call.status !== 'admitted') return false;
  if (call.outcomeJson !== undefined && sameOutcomeJson(call.outcomeJson, outcomeJson)) return true;
  throw new RunStoreError('outcome_conflict', 'A different outcome was already admitted for this call', {
    runId,
    callId,
  });
}
