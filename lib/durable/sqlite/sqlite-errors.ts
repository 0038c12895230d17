import { CanonicalJsonError } from '../canonical-json-error';
import { messageOf } from '../../errors/message-of';
import { RunStoreError } from '../run-store-error';

/**
 * Maps an error thrown by better-sqlite3 to a {@link RunStoreError}; wuwe errors pass through unchanged.
 * A file that is not a database or is damaged -> `store_corrupt`; busy, locked, unopenable, read-only, full or
 * I/O failures -> `store_unavailable`; anything else -> `store_failed`.
 */
export function mapSqliteError(error: unknown, context: { runId?: string; callId?: string } = {}): Error {
  if (RunStoreError.isInstance(error) || CanonicalJsonError.isInstance(error)) return error;
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const message = messageOf(error);
  const details = { ...context, cause: error };
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new RunStoreError('store_corrupt', `The SQLite file is not a readable database: ${message}`, details);
  }
  if (/^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|PERM|PROTOCOL)/.test(code)) {
    return new RunStoreError('store_unavailable', `The SQLite database is unavailable: ${message}`, details);
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) {
    return new RunStoreError(
      'call_conflict',
      `The database refused a duplicate or inconsistent row: ${message}`,
      details,
    );
  }
  return new RunStoreError('store_failed', `The SQLite database failed: ${message}`, details);
}
