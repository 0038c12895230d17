import { ModelApiErrorCode } from './model-api-error';

/**
 * What every model client shares when it maps a failed request to a {@link ModelApiError}: which HTTP
 * status means which code, which codes are worth retrying, the wait an API asked for, and how a
 * network failure looks in Node's and undici's errors. Each client keeps its own SDK-specific part.
 */

/** Error codes of Node's network stack and of undici that mean the connection failed or was cut. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Reads one response header, when the headers are known. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The {@link ModelApiErrorCode} of an HTTP failure: 401, 402, 403 `authentication`; 429 `rate_limited`;
 * 529 (or an `overloaded_error` body type) `overloaded`; 408, 409 and other 5xx `server_error`;
 * 499 `connection`; any other status `invalid_request`.
 */
export function codeOfHttpStatus(status: number, apiErrorType?: string): ModelApiErrorCode {
  if (status === 401 || status === 402 || status === 403) return 'authentication';
  if (status === 429) return 'rate_limited';
  if (status === 529 || apiErrorType === 'overloaded_error') return 'overloaded';
  if (status === 408 || status === 409 || status >= 500) return 'server_error';
  if (status === 499) return 'connection';
  return 'invalid_request';
}

/** True for the codes a retry may fix: `rate_limited`, `overloaded`, `server_error`, `connection`. */
export function isRetryableCode(code: ModelApiErrorCode): boolean {
  return code === 'rate_limited' || code === 'overloaded' || code === 'server_error' || code === 'connection';
}

/**
 * Whether an HTTP failure is retryable: the API's `x-should-retry` header when it sent one, otherwise
 * {@link isRetryableCode}.
 */
export function isRetryableFailure(code: ModelApiErrorCode, headers: HeaderReader | undefined): boolean {
  const shouldRetry = headers?.get('x-should-retry');
  return shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableCode(code);
}

/** Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(headers: HeaderReader | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const header = headers?.get('retry-after');
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Checks shape, not prototype: errors from another realm (a test sandbox, a worker) count too. */
export function isErrorLike(value: unknown): value is Error {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Error).name === 'string' &&
    typeof (value as Error).message === 'string'
  );
}

/** True when `error` or one of its causes is a failed, refused or cut connection. */
export function isNetworkError(error: Error): boolean {
  for (let current: unknown = error, depth = 0; isErrorLike(current) && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    if (current.name === 'TypeError' && /^(terminated|fetch failed|failed to fetch)$/i.test(current.message))
      return true;
  }
  return false;
}

/** The distinct messages of `error` and its causes, joined: what a network failure says about itself. */
export function networkDetail(error: Error): string {
  const messages: string[] = [];
  for (let current: unknown = error, depth = 0; isErrorLike(current) && depth < 5; current = current.cause, depth++) {
    if (!messages.includes(current.message)) messages.push(current.message);
  }
  return messages.filter((message) => message.length > 0).join(': ') || error.name;
}
