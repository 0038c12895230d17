import { RunQueueError } from './run-queue-error';

/** Longest agent name or run id, in UTF-16 code units. */
export const MAX_QUEUE_NAME_LENGTH = 256;

/** Control characters (C0, DEL, C1): no agent name or run id holds one. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Throws `invalid_queue_options` unless `value` is a name the queue can store and show as it is: a
 * non-empty string of at most {@link MAX_QUEUE_NAME_LENGTH} code units, without control character or
 * lone surrogate (PostgreSQL refuses a NUL and would store a lone surrogate as U+FFFD, another name).
 * For agent names and run ids. @internal
 */
export function checkAgentName(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value === '')
    invalid(`${what} must be a non-empty string, got ${typeof value === 'string' ? "''" : typeof value}`);
  if (value.length > MAX_QUEUE_NAME_LENGTH)
    invalid(`${what} may hold at most ${MAX_QUEUE_NAME_LENGTH} characters, got ${value.length}`);
  if (CONTROL_CHARACTER.test(value)) invalid(`${what} may not hold control characters`);
  if (!value.isWellFormed()) invalid(`${what} may not hold a lone surrogate`);
}

/**
 * Throws `invalid_queue_options` unless `value` is a string PostgreSQL stores as it is: no NUL, no lone surrogate, at
 * most `maxLength` code units. @internal
 */
export function checkQueueText(value: unknown, what: string, maxLength: number): asserts value is string {
  if (typeof value !== 'string') invalid(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
  if (value.length > maxLength) invalid(`${what} may hold at most ${maxLength} characters, got ${value.length}`);
  if (value.includes('\u0000')) invalid(`${what} may not hold a NUL character`);
  if (!value.isWellFormed()) invalid(`${what} may not hold a lone surrogate`);
}

/**
 * Whether `value` is a plain object (its prototype `Object.prototype` or `null`): no array, no class instance.
 * @internal
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === Object.prototype || prototype === null;
}

function invalid(message: string): never {
  throw new RunQueueError('invalid_queue_options', message);
}
