import { ModelApiError, ModelApiErrorCode } from '../model-api-error';

const PROVIDER = 'anthropic';

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

interface SdkErrorLike {
  readonly name: string;
  readonly message: string;
  readonly status?: unknown;
  readonly headers?: { get(name: string): string | null } | undefined;
  readonly requestID?: string | null;
  readonly type?: string | null;
  readonly apiMessage?: string | null;
}

/**
 * Turns what the Anthropic SDK threw into a {@link ModelApiError}, or returns `undefined` when the
 * error is none of the known failures (a bug elsewhere is not disguised as an API error).
 *
 * The SDK's errors are recognised by name and shape rather than by `instanceof`, so a client built with
 * another copy of the SDK maps the same way. When `signal` is aborted, the failure is `aborted`
 * whatever the SDK reported.
 */
export function toAnthropicModelApiError(error: unknown, signal?: AbortSignal): ModelApiError | undefined {
  if (ModelApiError.isInstance(error)) return error;
  if (!isErrorLike(error)) return undefined;
  const sdkError = error as Error & SdkErrorLike;
  if (signal?.aborted === true || sdkError.name === 'APIUserAbortError') {
    return new ModelApiError('aborted', { provider: PROVIDER, detail: 'the request was aborted', retryable: false, cause: error });
  }
  if (sdkError.name === 'SyntaxError') {
    return new ModelApiError('malformed_response', {
      provider: PROVIDER,
      detail: `the response body is not valid JSON (${error.message})`,
      retryable: false,
      cause: error,
    });
  }
  if (typeof sdkError.status === 'number') return fromStatusError(sdkError, sdkError.status);
  if (sdkError.name === 'APIConnectionTimeoutError' || sdkError.name === 'APIConnectionError' || isNetworkError(error)) {
    const timedOut = sdkError.name === 'APIConnectionTimeoutError';
    return new ModelApiError('connection', {
      provider: PROVIDER,
      detail: timedOut ? 'the request timed out' : `the connection failed (${networkDetail(error)})`,
      retryable: true,
      cause: error,
    });
  }
  if (sdkError.name === 'APIError' && typeof sdkError.type === 'string') return fromErrorType(sdkError, sdkError.type);
  if (sdkError.name === 'AnthropicError' || error.message.startsWith('Could not resolve authentication method')) {
    const isAuthentication = /auth|api ?key|credential/i.test(error.message);
    return new ModelApiError(isAuthentication ? 'authentication' : 'invalid_request', {
      provider: PROVIDER,
      detail: error.message,
      retryable: false,
      cause: error,
    });
  }
  return undefined;
}

function fromStatusError(error: Error & SdkErrorLike, status: number): ModelApiError {
  const code = codeOfStatus(status, error.type ?? undefined);
  const shouldRetry = error.headers?.get('x-should-retry');
  const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableCode(code);
  return new ModelApiError(code, {
    provider: PROVIDER,
    detail: error.apiMessage ?? error.message,
    status,
    requestId: error.requestID ?? undefined,
    apiErrorType: error.type ?? undefined,
    retryable,
    retryAfterMs: retryAfterMs(error.headers),
    cause: error,
  });
}

function fromErrorType(error: Error & SdkErrorLike, type: string): ModelApiError {
  const code = codeOfErrorType(type);
  return new ModelApiError(code, {
    provider: PROVIDER,
    detail: error.apiMessage ?? error.message,
    requestId: error.requestID ?? undefined,
    apiErrorType: type,
    retryable: isRetryableCode(code),
    cause: error,
  });
}

function codeOfStatus(status: number, type: string | undefined): ModelApiErrorCode {
  if (status === 401 || status === 402 || status === 403) return 'authentication';
  if (status === 429) return 'rate_limited';
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 408 || status === 409 || status >= 500) return 'server_error';
  if (status === 499) return 'connection';
  return 'invalid_request';
}

function codeOfErrorType(type: string): ModelApiErrorCode {
  switch (type) {
    case 'authentication_error':
    case 'permission_error':
    case 'billing_error':
      return 'authentication';
    case 'rate_limit_error':
      return 'rate_limited';
    case 'overloaded_error':
      return 'overloaded';
    case 'api_error':
    case 'timeout_error':
      return 'server_error';
    default:
      return 'invalid_request';
  }
}

function isRetryableCode(code: ModelApiErrorCode): boolean {
  return code === 'rate_limited' || code === 'overloaded' || code === 'server_error' || code === 'connection';
}

/** Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) into milliseconds. */
function retryAfterMs(headers: SdkErrorLike['headers']): number | undefined {
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
function isErrorLike(value: unknown): value is Error {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Error).name === 'string' &&
    typeof (value as Error).message === 'string'
  );
}

function isNetworkError(error: Error): boolean {
  for (let current: unknown = error, depth = 0; isErrorLike(current) && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    if (current.name === 'TypeError' && (current.message === 'terminated' || current.message === 'fetch failed')) return true;
  }
  return false;
}

function networkDetail(error: Error): string {
  const messages: string[] = [];
  for (let current: unknown = error, depth = 0; isErrorLike(current) && depth < 5; current = current.cause, depth++) {
    messages.push(current.message);
  }
  return messages.filter((message) => message.length > 0).join(': ') || error.name;
}
