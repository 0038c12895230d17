import { WuweError } from '../errors/wuwe-error';

/** Codes of {@link LlmAgentError}. */
export type LlmAgentErrorCode = 'invalid_run_options' | 'tool_output_projection_failed' | 'model_failed' | 'run_conflict';

/** A run that cannot start or continue. */
export class LlmAgentError extends WuweError<LlmAgentErrorCode> {
  constructor(code: LlmAgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
