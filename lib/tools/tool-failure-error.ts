import { WuweError } from '../errors/wuwe-error';
import { toolFailure, ToolFailureOptions, ToolOutcome } from '../outcome/tool-outcome';

/**
 * Throw it from a tool's `invoke` to fail with a chosen code, category and retryability;
 * `invokeReflectedTool` turns it into exactly that failure outcome.
 */
export class ToolFailureError extends WuweError<string> {
  readonly outcome: ToolOutcome;

  constructor(options: ToolFailureOptions) {
    super(options.code, options.message);
    this.outcome = toolFailure(options);
  }
}
