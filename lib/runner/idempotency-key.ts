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

/**
 * The idempotency key of one call, derived on first read and kept: a SHA-256 per call is a measurable
 * share of a call that no store and no provider asks the key of. The run, turn and call id are taken
 * when the call starts, so a key read after the run moved on is still the call's own. A key known
 * already (a resumed record's, or one a subclass's `idempotencyKeyOf` chose) is given as `known`.
 * @internal
 */
export class CallKey {
  private key: string | undefined;

  constructor(
    private readonly runId: string,
    private readonly turn: number,
    private readonly callId: string,
    known?: string,
  ) {
    this.key = known;
  }

  /** The key: `known`, else {@link deriveIdempotencyKey} of the run, turn and call id (once). */
  get value(): string {
    return (this.key ??= deriveIdempotencyKey(this.runId, this.turn, this.callId));
  }
}
