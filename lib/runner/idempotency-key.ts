import { hash } from 'node:crypto';

/**
 * The idempotency key of a call: derived from the run and the call id only, so it is the same on
 * every attempt and after a resume. `wuwe-` followed by 32 hex digits of SHA-256.
 */
export function deriveIdempotencyKey(runId: string, callId: string): string {
  return `wuwe-${hash('sha256', `${runId}\u0000${callId}`, 'hex').slice(0, 32)}`;
}
