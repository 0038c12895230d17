import { AgentRunStatus, AGENT_RUN_STATUSES } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';

/** The checks of single values (ids, turns, counts, times) that every {@link RunStore} applies the same way. */

/** Reads a clock (milliseconds since the epoch) as ISO 8601 text. */
export function isoTime(clock: () => number): string {
  return new Date(clock()).toISOString();
}

/** Throws `record_invalid` unless `status` is an {@link AgentRunStatus}. */
export function checkStatus(status: AgentRunStatus): void {
  if (!AGENT_RUN_STATUSES.includes(status))
    throw new RunStoreError('record_invalid', `Unknown run status '${String(status)}'`);
}

/**
 * Throws `record_invalid` unless `value` is a non-empty, well-formed string: an id with a lone surrogate would be
 * keyed, hashed (UTF-8) and stored (SQLite, PostgreSQL) as U+FFFD, so two different ids would name one record.
 */
export function checkId(value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0)
    throw new RunStoreError('record_invalid', `${what} must be a non-empty string`);
  checkWellFormed(value, what);
}

/** Throws `record_invalid` when `value` holds a lone surrogate (it is not well-formed UTF-16). */
export function checkWellFormed(value: string, what: string): void {
  if (!value.isWellFormed()) throw new RunStoreError('record_invalid', `${what} may not hold a lone surrogate`);
}

/**
 * The turn of a call named by a store caller: `turn`, or 1 when it is not given. Throws `record_invalid` unless it is a
 * positive integer.
 */
export function checkTurn(turn: number | undefined): number {
  if (turn === undefined) return 1;
  if (!Number.isSafeInteger(turn) || turn < 1)
    throw new RunStoreError('record_invalid', `turn must be a positive integer, got ${String(turn)}`);
  return turn;
}

/** The key of a call within its run: its turn and call id (a call id repeats across turns). */
export function callKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

/** Throws `record_invalid` unless `attempts` is a positive integer. */
export function checkAttempts(attempts: number): void {
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RunStoreError('record_invalid', `attempts must be a positive integer, got ${String(attempts)}`);
}

/** True for lowercase hex SHA-256 text. */
export function isSha256Hex(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/**
 * Returns `ms` when it is a positive whole number of milliseconds (at most 2^31-1); throws `record_invalid` otherwise.
 */
export function checkTimeout(ms: number, what: string): number {
  if (!Number.isInteger(ms) || ms <= 0 || ms > 2 ** 31 - 1)
    throw new RunStoreError(
      'record_invalid',
      `${what} must be a positive whole number of milliseconds, got ${String(ms)}`,
    );
  return ms;
}

/** Throws `record_invalid` unless `ttlMs` is a positive finite number. */
export function checkTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RunStoreError('record_invalid', `ttlMs must be positive, got ${String(ttlMs)}`);
}
