import {
  codeOfHttpStatus,
  isErrorLike,
  isNetworkError,
  isRetryableFailure,
  networkDetail,
  retryAfterMs,
} from '../http-failure';
import { ModelApiError } from '../model-api-error';

/** The provider name every OpenAI {@link ModelApiError} carries. */
export const OPENAI_PROVIDER = 'openai';

interface OpenAIErrorLike {
  readonly status?: unknown;
  readonly headers?: { get(name: string): string | null } | undefined;
  readonly requestID?: string | null;
  readonly type?: string | null;
  readonly error?: unknown;
}

/**
 * Turns what the `openai` SDK threw into a {@link ModelApiError}, or returns `undefined` when the error
 * is none of the known failures (a bug elsewhere is not disguised as an API error).
 *
 * The SDK's errors all have the name `Error`: they are recognised by their class names along the
 * prototype chain (`APIError`, `APIUserAbortError`, `APIConnectionError`, ...) and by shape, so a client
 * built with another copy of the SDK maps the same way. HTTP statuses map exactly as for the Anthropic
 * client (see `codeOfHttpStatus`). When `signal` is aborted, the failure is `aborted` whatever the SDK reported.
 */
export function toOpenAIModelApiError(error: unknown, signal?: AbortSignal): ModelApiError | undefined {
  if (ModelApiError.isInstance(error)) return error;
  if (!isErrorLike(error)) return undefined;
  const classes = classNames(error);
  if (signal?.aborted === true || classes.includes('APIUserAbortError') || error.name === 'AbortError') {
    return new ModelApiError('aborted', {
      provider: OPENAI_PROVIDER,
      detail: 'the request was aborted',
      retryable: false,
      cause: error,
    });
  }
  if (error.name === 'SyntaxError') {
    return malformed(`the response body is not valid JSON (${error.message})`, error);
  }
  const sdkError = error as Error & OpenAIErrorLike;
  if (typeof sdkError.status === 'number') return fromStatusError(sdkError, sdkError.status);
  if (classes.includes('APIConnectionError') || isNetworkError(error)) {
    const timedOut = classes.includes('APIConnectionTimeoutError');
    return new ModelApiError('connection', {
      provider: OPENAI_PROVIDER,
      detail: timedOut ? 'the request timed out' : `the connection failed (${networkDetail(error)})`,
      retryable: true,
      cause: error,
    });
  }
  if (classes.includes('APIError')) return fromStreamError(sdkError);
  if (classes.includes('OpenAIError')) {
    const isAuthentication = /auth|api ?key|credential/i.test(error.message);
    return new ModelApiError(isAuthentication ? 'authentication' : 'invalid_request', {
      provider: OPENAI_PROVIDER,
      detail: error.message,
      retryable: false,
      cause: error,
    });
  }
  return undefined;
}

/** A `malformed_response` error of the OpenAI provider. */
export function malformed(detail: string, cause?: unknown, requestId?: string): ModelApiError {
  return new ModelApiError('malformed_response', {
    provider: OPENAI_PROVIDER,
    detail,
    requestId,
    retryable: false,
    cause,
  });
}

function fromStatusError(error: Error & OpenAIErrorLike, status: number): ModelApiError {
  const type = typeof error.type === 'string' ? error.type : undefined;
  const code = codeOfHttpStatus(status, type);
  return new ModelApiError(code, {
    provider: OPENAI_PROVIDER,
    detail: apiMessage(error) ?? error.message,
    status,
    requestId: error.requestID ?? undefined,
    apiErrorType: type,
    retryable: isRetryableFailure(code, error.headers),
    retryAfterMs: retryAfterMs(error.headers),
    cause: error,
  });
}

/**
 * An error event inside a stream that already answered 200 (the SDK raises it as an `APIError` without
 * a status): the API failed part-way, which a retry may fix.
 */
function fromStreamError(error: Error & OpenAIErrorLike): ModelApiError {
  const type = typeof error.type === 'string' ? error.type : undefined;
  const isRequestError = type === 'invalid_request_error';
  return new ModelApiError(isRequestError ? 'invalid_request' : 'server_error', {
    provider: OPENAI_PROVIDER,
    detail: apiMessage(error) ?? error.message,
    apiErrorType: type,
    retryable: !isRequestError,
    cause: error,
  });
}

/** The API's own message (`error.message` of the body), when it gave one. */
function apiMessage(error: OpenAIErrorLike): string | undefined {
  const body = error.error;
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    const message = (body as { message: string }).message;
    return message.length > 0 ? message : undefined;
  }
  return undefined;
}

function classNames(error: Error): string[] {
  const names: string[] = [];
  for (let prototype: unknown = Object.getPrototypeOf(error), depth = 0; prototype !== null && depth < 8; depth++) {
    const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string') names.push(name);
    prototype = Object.getPrototypeOf(prototype);
  }
  return names;
}
