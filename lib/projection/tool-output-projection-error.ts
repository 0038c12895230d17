import { WuweError } from '../errors/wuwe-error';
import { ToolOutputProjectionFailureKind } from './tool-output-projection-result';
import { hasErrorMarker } from '../errors/error-marker';

const TOOL_OUTPUT_PROJECTION_ERROR_MARKER = Symbol.for('wuwe.error.ToolOutputProjectionError');

/**
 * Thrown by `projectToolOutputForModel` when an outcome cannot be projected for the model; it
 * carries the same `kind` as the failure `tryProjectToolOutputForModel` would have returned.
 */
export class ToolOutputProjectionError extends WuweError<'tool_output_projection_failed'> {
  private readonly [TOOL_OUTPUT_PROJECTION_ERROR_MARKER] = true;

  /** True when `value` is a ToolOutputProjectionError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolOutputProjectionError {
    return hasErrorMarker(value, TOOL_OUTPUT_PROJECTION_ERROR_MARKER);
  }

  constructor(
    /** Which step failed. */
    readonly kind: ToolOutputProjectionFailureKind,
    /** What went wrong, without the prefix of `message`. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('tool_output_projection_failed', `Tool output projection failed (${kind}): ${reason}`, options);
  }
}
