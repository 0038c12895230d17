import { hasErrorMarker } from '../errors/error-marker';
import { WuweError } from '../errors/wuwe-error';

/** Codes of {@link AgentToolError}. */
export type AgentToolErrorCode =
  /** The host asked for a contract weaker than the one derived from the child's tools. */
  | 'contract_loosened'
  /** The agent tool's options cannot work (a name, a schema, a timeout). */
  | 'invalid_agent_tool';

const AGENT_TOOL_ERROR_MARKER = Symbol.for('wuwe.error.AgentToolError');

/** An agent tool that cannot be made as asked. */
export class AgentToolError extends WuweError<AgentToolErrorCode> {
  private readonly [AGENT_TOOL_ERROR_MARKER] = true;

  /** True when `value` is an AgentToolError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is AgentToolError {
    return hasErrorMarker(value, AGENT_TOOL_ERROR_MARKER);
  }

  constructor(code: AgentToolErrorCode, message: string) {
    super(code, message);
  }
}
