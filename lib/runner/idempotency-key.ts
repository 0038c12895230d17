import { createHash } from 'node:crypto';

/**
 * The idempotency key of a call: derived from the run and the call id only, so it is the same on
 * every attempt and after a resume. `wuwe-` followed by 32 hex digits of SHA-256.
 */
export function deriveIdempotencyKey(runId: string, callId: string): string {
  return `wuwe-${createHash('sha256').update(runId).update('\u0000').update(callId).digest('hex').slice(0, 32)}`;
}
