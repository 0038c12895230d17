import {
  codeOfHttpStatus,
  HeaderReader,
  isErrorLike,
  isNetworkError,
  isRetryableFailure,
  networkDetail,
  retryAfterMs,
} from '../http-failure';
import { ModelApiError, ModelApiErrorCode } from '../model-api-error';

/** AI SDK errors (by `name`) about the request or the configuration: never sent, or refused before sending. */
const REQUEST_ERRORS = new Set([
  'AI_InvalidPromptError',
  'AI_InvalidArgumentError',
  'AI_UnsupportedFunctionalityError',
  'AI_LoadSettingError',
  'AI_NoSuchModelError',
]);

/** AI SDK errors (by `name`) about an answer that is not what the provider's API sends. */
const RESPONSE_ERRORS = new Set([
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_InvalidResponseDataError',
  'AI_EmptyResponseBodyError',
  'AI_NoContentGeneratedError',
]);

interface ApiCallErrorLike {
  readonly name: string;
  readonly message: string;
  readonly statusCode?: unknown;
  readonly responseHeaders?: Record<string, string>;
  readonly data?: unknown;
  readonly cause?: unknown;
}

/**
 * Turns what an AI SDK model threw (or sent as a stream `error` part) into a {@link ModelApiError}
 * with the codes of every wuwe client:
 *
 * - `APICallError` with an HTTP status: 401/402/403 `authentication`, 429 `rate_limited`, 529 (or an
 *   `overloaded_error` type) `overloaded`, 408/409/5xx `server_error`, other 4xx `invalid_request`, and a
 *   2xx whose body could not be read `malformed_response`; `status`, the request id (`x-request-id`
 *   or `request-id` header), the API's error type and `retry-after` are kept;
 * - `APICallError` without a status, or any error caused by a network failure (a connection refused,
 *   reset, or cut while the body was read): `connection`;
 * - `LoadAPIKeyError`: `authentication`; invalid prompt or argument, unsupported functionality:
 *   `invalid_request`; JSON parse, type validation, invalid or empty response: `malformed_response`;
 * - anything at all while `signal` is aborted, or an `AbortError`: `aborted`.
 *
 * Errors are recognised by name and shape rather than by `instanceof`, so another copy of the AI SDK
 * maps the same way. Anything else returns `undefined`: a bug elsewhere is not disguised as an API error.
 */
export function toAiSdkModelApiError(
  error: unknown,
  provider: string,
  signal?: AbortSignal,
): ModelApiError | undefined {
  if (ModelApiError.isInstance(error)) return error;
  if (
    signal?.aborted === true ||
    (isErrorLike(error) && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  ) {
    return new ModelApiError('aborted', {
      provider,
      detail: 'the request was aborted',
      retryable: false,
      cause: error,
    });
  }
  if (!isErrorLike(error)) return undefined;
  const failure = error as Error & ApiCallErrorLike;
  if (failure.name === 'AI_RetryError' && isErrorLike((failure as { lastError?: unknown }).lastError)) {
    return toAiSdkModelApiError((failure as { lastError?: unknown }).lastError, provider, signal);
  }
  // A network failure first: a connection cut while reading a 200 body is an APICallError with status 200 and a network
  // cause.
  const networkFailure = isNetworkError(failure);
  if (failure.name === 'AI_APICallError' && typeof failure.statusCode === 'number' && !networkFailure)
    return fromStatus(failure, failure.statusCode, provider);
  if (failure.name === 'AI_APICallError' || networkFailure) {
    return new ModelApiError('connection', {
      provider,
      detail: `the connection failed (${networkDetail(failure)})`,
      retryable: true,
      cause: error,
    });
  }
  if (failure.name === 'AI_LoadAPIKeyError')
    return new ModelApiError('authentication', { provider, detail: failure.message, retryable: false, cause: error });
  if (REQUEST_ERRORS.has(failure.name))
    return new ModelApiError('invalid_request', { provider, detail: failure.message, retryable: false, cause: error });
  if (RESPONSE_ERRORS.has(failure.name))
    return new ModelApiError('malformed_response', {
      provider,
      detail: failure.message,
      retryable: false,
      cause: error,
    });
  return undefined;
}

/**
 * A stream `error` part that is not an `Error`: the provider's error object from the stream (e.g. an
 * OpenAI `{ message, type, code }` chunk), reported as `server_error` with its message and type.
 */
export function fromStreamErrorValue(value: unknown, provider: string): ModelApiError {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const message =
    typeof record.message === 'string'
      ? record.message
      : typeof value === 'string'
        ? value
        : 'the stream reported an error';
  const type = typeof record.type === 'string' ? record.type : undefined;
  const code =
    type === 'overloaded_error' ? 'overloaded' : type === 'rate_limit_error' ? 'rate_limited' : 'server_error';
  return new ModelApiError(code, { provider, detail: message, apiErrorType: type, retryable: true, cause: value });
}

function fromStatus(error: Error & ApiCallErrorLike, status: number, provider: string): ModelApiError {
  const apiErrorType = errorTypeOf(error.data);
  // A 2xx whose body could not be read is the answer's fault, not the request's.
  const code: ModelApiErrorCode =
    status >= 200 && status < 300 ? 'malformed_response' : codeOfHttpStatus(status, apiErrorType);
  const headers = headerReader(error.responseHeaders);
  const detail =
    code === 'malformed_response' ? `the response body could not be read (${causeMessage(error)})` : error.message;
  return new ModelApiError(code, {
    provider,
    detail,
    status,
    requestId: headers.get('x-request-id') ?? headers.get('request-id') ?? undefined,
    apiErrorType,
    retryable: isRetryableFailure(code, headers),
    retryAfterMs: retryAfterMs(headers),
    cause: error,
  });
}

/** The API's error type from the parsed error body: `{ error: { type } }` (OpenAI, Anthropic) or `{ type }`. */
function errorTypeOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as { type?: unknown; error?: { type?: unknown } };
  const type = typeof record.error === 'object' && record.error !== null ? record.error.type : record.type;
  return typeof type === 'string' && type.length > 0 ? type : undefined;
}

/** The AI SDK's response headers (a plain record) read case-insensitively. */
function headerReader(headers: Record<string, string> | undefined): HeaderReader {
  const lower = new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => lower.get(name) ?? null };
}

function causeMessage(error: Error): string {
  return isErrorLike(error.cause) ? error.cause.message : error.message;
}
