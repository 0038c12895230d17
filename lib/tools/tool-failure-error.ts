import { WuweError } from '../errors/wuwe-error';
import { toolFailure, ToolFailureOptions, ToolOutcome } from '../outcome/tool-outcome';
import { hasErrorMarker } from '../errors/error-marker';

const TOOL_FAILURE_ERROR_MARKER = Symbol.for('wuwe.error.ToolFailureError');

/**
 * Throw it from a tool's `invoke` to fail with a chosen code, category and retryability;
 * `invokeReflectedTool` turns it into exactly that failure outcome.
 */
export class ToolFailureError extends WuweError<string> {
  private readonly [TOOL_FAILURE_ERROR_MARKER] = true;

  /** True when `value` is a ToolFailureError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolFailureError {
    return hasErrorMarker(value, TOOL_FAILURE_ERROR_MARKER);
  }

  readonly outcome: ToolOutcome;

  constructor(options: ToolFailureOptions) {
    super(options.code, options.message);
    this.outcome = toolFailure(options);
  }
}
