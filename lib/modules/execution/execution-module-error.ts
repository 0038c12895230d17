import { WuweError } from '../../errors/wuwe-error';

/** Codes of {@link ExecutionModuleError}. */
export type ExecutionModuleErrorCode = 'invalid_execution_options' | 'invalid_job_kind' | 'duplicate_job_kind';

/** The execution module refused its configuration or a job kind registration. */
export class ExecutionModuleError extends WuweError<ExecutionModuleErrorCode> {
  constructor(code: ExecutionModuleErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
