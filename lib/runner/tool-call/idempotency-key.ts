import { hash } from 'node:crypto';

/**
 * The idempotency key of a call: derived from the run, the call's turn (the model step that asked for it, see
 * `ToolCallIdentity.turn`) and the call id, so it is the same on every attempt and after a resume, and a
 * model that reuses a call id in a later turn gets a fresh key. `wuwe-` followed by 32 hex digits of SHA-256.
 *
 * Since schema version 2 the turn is part of the key (it was `(runId, callId)` before); a call recorded before
 * keeps the key stored with it.
 */
export function deriveIdempotencyKey(runId: string, turn: number, callId: string): string {
  return `wuwe-${hash('sha256', `${runId}\u0000${turn}\u0000${callId}`, 'hex').slice(0, 32)}`;
}
