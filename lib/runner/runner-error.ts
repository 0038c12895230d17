import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Codes of {@link LlmAgentError}. */
export type LlmAgentErrorCode =
  | 'invalid_run_options'
  | 'tool_output_projection_failed'
  | 'model_failed'
  | 'run_conflict'
  /** `complete()` / `stream()` got an input that is not a prompt or a well-formed message list. */
  | 'invalid_input'
  /** `continueFrom` names a conversation the store (or memory) does not have. */
  | 'conversation_not_found'
  /**
   * The run was aborted and its store did not answer within `abortedWriteGraceMs`, so the runner stopped waiting for
   * it.
   */
  | 'store_write_abandoned'
  /**
   * A protected step (an override) answered something other than its documented shape, such as a `ToolOutcome` where a
   * `Gate` is due; the call did not run.
   */
  | 'invalid_step_answer'
  /**
   * A run hook the host gave (`prepareStep`, a `stopWhen` condition) threw or rejected; `cause` holds what it threw.
   * The run stopped there: nothing after the hook ran.
   */
  | 'run_hook_failed';

const LLM_AGENT_ERROR_MARKER = Symbol.for('wuwe.error.LlmAgentError');

/** A run that cannot start or continue. */
export class LlmAgentError extends WuweError<LlmAgentErrorCode> {
  private readonly [LLM_AGENT_ERROR_MARKER] = true;

  /** True when `value` is a LlmAgentError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is LlmAgentError {
    return hasErrorMarker(value, LLM_AGENT_ERROR_MARKER);
  }

  constructor(code: LlmAgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
