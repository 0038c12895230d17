import { McpServerOptions } from './mcp-server-connection';
import { McpToolContractOptions } from './mcp-tool-descriptor';
import { McpToolListLimits } from './mcp-tool-list-limits';

/** Options of {@link McpToolProvider.connect}. */
export interface McpToolProviderOptions extends McpToolContractOptions {
  /** The server: a child process (`stdio`) or an endpoint (`http`). */
  readonly server: McpServerOptions;
  /** Name of the server in descriptor metadata and messages. @default the name the server announces */
  readonly name?: string;
  /**
   * The server must answer the handshake within this time, and then its whole tool list within this
   * time again; on `connect` and on every restart. A server that does not is given up (a child is
   * stopped). Separate from the call deadline `timeoutMs`: starting a server often takes longer than a call.
   * @default 30000
   */
  readonly connectTimeoutMs?: number;
  /** Bounds on the tool list the server may send. @default {@link DEFAULT_MCP_TOOL_LIST_LIMITS} */
  readonly limits?: McpToolListLimits;
}
