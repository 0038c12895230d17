import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/**
 * Codes of {@link UIStreamError}.
 *
 * - `invalid_options`: an option of `toUIMessageStream()` or `decideUIApproval()` is missing or malformed (a
 *   signing secret shorter than 32 bytes, an empty principal, a continuation of another run).
 * - `approval_forged`: a client's approval response names an approval this host did not issue: an approval id that
 *   does not verify under the host's secret, a tool part whose call id, tool name or input differ from what the
 *   id is bound to, or an approval the run's store does not hold for that call and argument hash.
 * - `approval_replayed`: the approval the response names was already decided (or cancelled with its run).
 *
 * A refused response decides nothing: every response of a request is checked before any is recorded.
 */
export type UIStreamErrorCode = 'invalid_options' | 'approval_forged' | 'approval_replayed';

/** Structured context of a {@link UIStreamError}. */
export interface UIStreamErrorDetails {
  /** The run concerned, when known. */
  readonly runId?: string;
  /** The tool call concerned, when known. */
  readonly callId?: string;
  /** The turn of the call concerned, when known. */
  readonly turn?: number;
}

const UI_STREAM_ERROR_MARKER = Symbol.for('wuwe.error.UIStreamError');

/** A UI message stream or a client's approval response that wuwe refuses; nothing was decided or run. */
export class UIStreamError extends WuweError<UIStreamErrorCode> {
  /** What the error concerns. */
  readonly details: UIStreamErrorDetails;
  private readonly [UI_STREAM_ERROR_MARKER] = true;

  /** True when `value` is a UIStreamError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is UIStreamError {
    return hasErrorMarker(value, UI_STREAM_ERROR_MARKER);
  }

  constructor(
    code: UIStreamErrorCode,
    message: string,
    details: UIStreamErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.details = details;
  }
}
