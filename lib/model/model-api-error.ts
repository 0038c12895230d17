import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/**
 * Codes of {@link ModelApiError}: why a model request failed, independent of the provider.
 *
 * | code | meaning | retryable by default |
 * |---|---|---|
 * | `invalid_request` | the request was rejected (HTTP 400, 404, 413, 422) or could not be built | no |
 * | `authentication` | the credentials were missing, wrong or lack permission (HTTP 401, 403) | no |
 * | `rate_limited` | too many requests (HTTP 429) | yes |
 * | `overloaded` | the API is temporarily overloaded (HTTP 529) | yes |
 * | `server_error` | the API failed (HTTP 5xx other than 529, 408, 409) | yes |
 * | `connection` | the network failed, timed out, or the connection was cut mid-response | yes |
 * | `aborted` | the caller aborted the request through its `AbortSignal` | no |
 * | `malformed_response` | the API answered, but not with a well-formed Messages API response | no |
 */
export type ModelApiErrorCode =
  | 'invalid_request'
  | 'authentication'
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'connection'
  | 'aborted'
  | 'malformed_response';

/** The structured facts a {@link ModelApiError} carries. */
export interface ModelApiErrorDetails {
  /** Which provider the request went to, e.g. `'anthropic'`. */
  readonly provider: string;
  /** A short, human-readable explanation (the API's own message when it gave one). */
  readonly detail: string;
  /** HTTP status of the failed response, when there was one. */
  readonly status?: number;
  /** The API's request id (the `request-id` response header), when there was one. */
  readonly requestId?: string;
  /** The API's error type from the response body (e.g. `'overloaded_error'`), when there was one. */
  readonly apiErrorType?: string;
  /** Whether sending the same request again may succeed. */
  readonly retryable: boolean;
  /** How long the API asked the caller to wait before retrying (from `retry-after-ms` / `retry-after`). */
  readonly retryAfterMs?: number;
  /** The underlying error, kept for diagnostics. */
  readonly cause?: unknown;
}

const MODEL_API_ERROR_MARKER = Symbol.for('wuwe.error.ModelApiError');

/**
 * A model request that failed: rejected by the API, cut off on the network, aborted by the caller,
 * or answered with a body that is not a valid response. Branch on {@link ModelApiError.code};
 * `status`, `requestId` and `retryable` carry what the API said.
 *
 * Retrying is left to the caller (and to the provider SDK's own retry settings): this error only
 * reports whether a retry may help.
 */
export class ModelApiError extends WuweError<ModelApiErrorCode> {
  private readonly [MODEL_API_ERROR_MARKER] = true;

  /** True when `value` is a ModelApiError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ModelApiError {
    return hasErrorMarker(value, MODEL_API_ERROR_MARKER);
  }

  /** Which provider the request went to, e.g. `'anthropic'`. */
  readonly provider: string;
  /** A short, human-readable explanation (the API's own message when it gave one). */
  readonly detail: string;
  /** HTTP status of the failed response, when there was one. */
  readonly status: number | undefined;
  /** The API's request id, when there was one; quote it when reporting a problem to the provider. */
  readonly requestId: string | undefined;
  /** The API's error type from the response body, when there was one. */
  readonly apiErrorType: string | undefined;
  /** Whether sending the same request again may succeed. */
  readonly retryable: boolean;
  /** How long the API asked the caller to wait before retrying, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ModelApiErrorCode, details: ModelApiErrorDetails) {
    super(code, ModelApiError.formatMessage(code, details), { cause: details.cause });
    this.provider = details.provider;
    this.detail = details.detail;
    this.status = details.status;
    this.requestId = details.requestId;
    this.apiErrorType = details.apiErrorType;
    this.retryable = details.retryable;
    this.retryAfterMs = details.retryAfterMs;
  }

  private static formatMessage(code: ModelApiErrorCode, details: ModelApiErrorDetails): string {
    const facts: string[] = [code];
    if (details.status !== undefined) facts.push(`status ${details.status}`);
    if (details.requestId !== undefined) facts.push(`request ${details.requestId}`);
    return `Model request to ${details.provider} failed (${facts.join(', ')}): ${details.detail}`;
  }
}
