import { WuweError } from '../errors/wuwe-error';
import { ToolOutputProjectionFailureKind } from './tool-output-projection-result';

/**
 * Thrown by `projectToolOutputForModel` when an outcome cannot be projected for the model; it
 * carries the same `kind` as the failure `tryProjectToolOutputForModel` would have returned.
 */
export class ToolOutputProjectionError extends WuweError<'tool_output_projection_failed'> {
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
