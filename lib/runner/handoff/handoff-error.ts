import { hasErrorMarker } from '../../errors/error-marker';
import { WuweError } from '../../errors/wuwe-error';

/** Codes of {@link HandoffError}. */
export type HandoffErrorCode =
  /**
   * A handoff that cannot work, refused when the runner is built: no name, a name a tool name cannot carry, two
   * handoffs of one name, a transfer tool whose name another tool has, a runner with handoffs but no `name`, a target
   * that is not an `LlmAgentRunner`, an `inputFilter` that is not a function.
   */
  | 'invalid_handoff'
  /**
   * A resumed run started on an agent (its metadata's `entryAgent`) that the resuming runner's handoffs do not reach
   * (or reach twice), so its transfers cannot be replayed; a handoff target that cannot be read; `handoffsOf` given a
   * runner that is no `LlmAgentRunner`.
   */
  | 'handoff_not_found'
  /** A handoff's `inputFilter` threw or answered something that is not a message list; no request was sent. */
  | 'input_filter_failed';

const HANDOFF_ERROR_MARKER = Symbol.for('wuwe.error.HandoffError');

/** A handoff that cannot be made, resumed or filtered as asked. */
export class HandoffError extends WuweError<HandoffErrorCode> {
  private readonly [HANDOFF_ERROR_MARKER] = true;

  /** True when `value` is a HandoffError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is HandoffError {
    return hasErrorMarker(value, HANDOFF_ERROR_MARKER);
  }

  constructor(code: HandoffErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
