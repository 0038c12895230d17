import {
  codeOfHttpStatus,
  isErrorLike,
  isNetworkError,
  isRetryableCode,
  isRetryableFailure,
  networkDetail,
  retryAfterMs,
} from '../http-failure';
import { ModelApiError, ModelApiErrorCode } from '../model-api-error';

const PROVIDER = 'anthropic';

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
    return new ModelApiError('aborted', {
      provider: PROVIDER,
      detail: 'the request was aborted',
      retryable: false,
      cause: error,
    });
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
  if (
    sdkError.name === 'APIConnectionTimeoutError' ||
    sdkError.name === 'APIConnectionError' ||
    isNetworkError(error)
  ) {
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
  const code = codeOfHttpStatus(status, error.type ?? undefined);
  return new ModelApiError(code, {
    provider: PROVIDER,
    detail: error.apiMessage ?? error.message,
    status,
    requestId: error.requestID ?? undefined,
    apiErrorType: error.type ?? undefined,
    retryable: isRetryableFailure(code, error.headers),
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
