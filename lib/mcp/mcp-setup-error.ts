import { WuweError } from '../errors/wuwe-error';

const MCP_SETUP_ERROR_MARKER = Symbol.for('wuwe.error.McpSetupError');

/** Codes of {@link McpSetupError}. */
export type McpSetupErrorCode =
  | 'no_tools_in_module'
  | 'invalid_server_options'
  | 'server_unreachable'
  | 'duplicate_tool'
  /**
   * The server's tool list could not be read: an error, no answer in time, or the connection closed (a message over the
   * transport's limit).
   */
  | 'tool_list_unreadable'
  /** The server lists more tools than `limits.maxTools`. */
  | 'tool_list_too_large';

/**
 * An MCP server or client that cannot be set up: a module with no tools to serve, options that
 * cannot work, a server that cannot be reached, whose tool list cannot be read or is too large, or
 * that lists one tool name twice. Thrown to the host
 * (never a tool outcome).
 */
export class McpSetupError extends WuweError<McpSetupErrorCode> {
  private readonly [MCP_SETUP_ERROR_MARKER] = true;

  constructor(code: McpSetupErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  /** True when `value` is an McpSetupError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is McpSetupError {
    return typeof value === 'object' && value !== null && MCP_SETUP_ERROR_MARKER in value;
  }
}
