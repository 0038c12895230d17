import { WuweError } from '../../errors/wuwe-error';
import { hasErrorMarker } from '../../errors/error-marker';

/** Codes of {@link ExecutionModuleError}. */
export type ExecutionModuleErrorCode = 'invalid_execution_options' | 'invalid_job_kind' | 'duplicate_job_kind';

const EXECUTION_MODULE_ERROR_MARKER = Symbol.for('wuwe.error.ExecutionModuleError');

/** The execution module refused its configuration or a job kind registration. */
export class ExecutionModuleError extends WuweError<ExecutionModuleErrorCode> {
  private readonly [EXECUTION_MODULE_ERROR_MARKER] = true;

  /** True when `value` is a ExecutionModuleError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ExecutionModuleError {
    return hasErrorMarker(value, EXECUTION_MODULE_ERROR_MARKER);
  }

  constructor(code: ExecutionModuleErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
