import { CanonicalJsonError } from '../canonical-json-error';
import { messageOf } from '../../errors/message-of';
import { RunStoreError } from '../run-store-error';

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /connection terminated|not queryable|timeout exceeded when trying to connect|connection error|terminating connection|Client was closed/i;

/**
 * Maps an error thrown by `pg` to a {@link RunStoreError}; wuwe errors pass through unchanged.
 * Lost or refused connections, shutdowns, authentication and missing-database failures, deadlocks and
 * serialization failures -> `store_unavailable` (worth retrying the whole operation); damaged data ->
 * `store_corrupt`; a missing run row under a foreign key -> `run_not_found`; anything else -> `store_failed`.
 */
export function mapPostgresError(error: unknown, context: { runId?: string; callId?: string } = {}): Error {
  if (RunStoreError.isInstance(error) || CanonicalJsonError.isInstance(error)) return error;
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const message = messageOf(error);
  const details = { ...context, cause: error };
  if (code === '23503') return new RunStoreError('run_not_found', 'No such run', details);
  if (code === '23505')
    return new RunStoreError('call_conflict', `The database refused a duplicate row: ${message}`, details);
  if (code === 'XX001' || code === 'XX002')
    return new RunStoreError('store_corrupt', `PostgreSQL reports damaged data: ${message}`, details);
  if (
    UNAVAILABLE_NODE_CODES.has(code) ||
    /^(08|57P|53|28|3D)/.test(code) ||
    code === '40001' ||
    code === '40P01' ||
    (code === '' && UNAVAILABLE_MESSAGES.test(message))
  ) {
    return new RunStoreError('store_unavailable', `PostgreSQL is unavailable: ${message}`, details);
  }
  return new RunStoreError('store_failed', `PostgreSQL failed: ${message}`, details);
}
