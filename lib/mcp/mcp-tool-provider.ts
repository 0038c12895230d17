import { randomUUID } from 'node:crypto';
import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { messageOf } from '../errors/message-of';
import { MissingDependencyError } from '../errors/optional-dependency';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from '../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities, ToolsChangedListener } from '../providers/tool-provider';
import { McpSdkTypesModule, loadMcpSdk } from './load-mcp-sdk';
import { stricterDeclaration } from './changed-declaration';
import { outcomeFromMcpResult } from './mcp-call-outcome';
import { checkedAgainstCurrentDeclaration, lostConnectionOutcome } from './mcp-provider-outcomes';
import { connectMcpServer, McpConnection } from './mcp-server-connection';
import { McpSetupError } from './mcp-setup-error';
import { McpRefusedTool, readToolList, sameTools, ToolList, ToolListReading } from './mcp-tool-list';
import { resolveMcpToolListLimits } from './mcp-tool-list-limits';
import { McpToolProviderOptions } from './mcp-tool-provider-options';

/** The provider reports progress as heartbeats; nothing else. */
const MCP_CAPABILITIES: ToolProviderCapabilities = Object.freeze({ ...NO_CAPABILITIES, heartbeat: true });

/**
 * The tools of an MCP server as a {@link ToolProvider}: run them through `LlmAgentRunner` like any
 * other tools, with their contract taken from the MCP annotations (see {@link descriptorFromMcpTool}).
 *
 * The call's deadline (or the run's abort) sends `notifications/cancelled`; progress notifications
 * become heartbeats. When the server crashes (the child exits, the session ends), calls in flight get
 * `unavailable` (read-only or idempotent tools: safe to retry) or `outcome_unknown` (the effect may
 * have happened), and the next call starts the server again.
 *
 * The provider follows the server's tool list: on `notifications/tools/list_changed`, and after the
 * server was started again, it lists the tools anew (schemas checked as on `connect`) and tells its
 * `onToolsChanged` listeners; a list that fails the checks leaves the previous one in place
 * ({@link McpToolProvider.lastRefreshError} says why).
 */
export class McpToolProvider implements ToolProvider {
  private connection: McpConnection | undefined;
  private reconnecting: Promise<McpConnection> | undefined;
  private restartCount = 0;
  private closing = false;
  private readonly listeners = new Set<ToolsChangedListener>();
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private refreshError: Error | undefined;

  private constructor(
    private readonly options: McpToolProviderOptions,
    private readonly reading: ToolListReading,
    connection: McpConnection,
    private toolList: ToolList,
  ) {
    this.connection = connection;
    this.follow(connection);
  }

  /**
   * Starts or reaches the server, lists its tools and checks their schemas.
   * A tool that fails its checks (a name wuwe cannot offer, a description or schema over the
   * `limits`, a schema that cannot be compiled) is left out and reported in
   * {@link McpToolProvider.refusedTools}; the others are offered.
   * @throws MissingDependencyError `missing_dependency` when `@modelcontextprotocol/sdk` is not installed.
   * @throws McpSetupError `server_unreachable` when the server cannot be started or reached or does not
   *   answer the handshake within `connectTimeoutMs`; `tool_list_unreadable`, `tool_list_too_large`
   *   and `duplicate_tool` for a tool list that cannot be taken (see {@link McpSetupErrorCode});
   *   `invalid_server_options` for limits out of range.
   */
  static async connect(options: McpToolProviderOptions): Promise<McpToolProvider> {
    const limits = resolveMcpToolListLimits(options.limits);
    const timeoutMs = options.connectTimeoutMs ?? 30_000;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
      throw new McpSetupError(
        'invalid_server_options',
        `connectTimeoutMs must be a positive integer, got ${String(timeoutMs)}`,
      );
    let connection: McpConnection;
    try {
      connection = await connectMcpServer(options.server, 'wuwe', {
        timeoutMs,
        maxMessageBytes: limits.maxMessageBytes,
      });
    } catch (error) {
      if (MissingDependencyError.isInstance(error)) throw error;
      throw new McpSetupError(
        'server_unreachable',
        `the MCP server could not be started or reached: ${messageOf(error)}`,
        { cause: error },
      );
    }
    try {
      const serverName = options.name ?? connection.client.getServerVersion()?.name ?? 'mcp';
      const reading: ToolListReading = { serverName, contract: options, limits, timeoutMs };
      return new McpToolProvider(options, reading, connection, await readToolList(connection, reading));
    } catch (error) {
      await connection.client.close().catch(() => undefined);
      throw error;
    }
  }

  /** The name of the server, from the options or its announcement. */
  get serverName(): string {
    return this.reading.serverName;
  }

  /** The tools of the server's last accepted listing that are not offered, and why (see {@link McpRefusedTool}). */
  get refusedTools(): readonly McpRefusedTool[] {
    return this.toolList.refused;
  }

  /** How many times the server was started again after it went away. */
  get restarts(): number {
    return this.restartCount;
  }

  /** The process id of the running server (stdio), for diagnostics. */
  get pid(): number | undefined {
    return this.connection?.pid;
  }

  listTools(): readonly ToolDescriptor[] {
    return this.toolList.descriptors;
  }

  /** Subscribes to changes of the server's tool list (see the class notes); returns the unsubscribe function. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Why the last reading of the tool list was refused (the previous list stays), or `undefined` after a good one. */
  get lastRefreshError(): Error | undefined {
    return this.refreshError;
  }

  /**
   * Lists the server's tools again now (as a `list_changed` notification does); resolves once the list
   * is read, whether it was taken or refused. Listeners hear of a list that changed.
   */
  refreshTools(): Promise<void> {
    if (this.refreshing !== undefined) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await this.readAgain();
      } while (this.refreshAgain && !this.closing);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  capabilities(): ToolProviderCapabilities {
    return MCP_CAPABILITIES;
  }

  /** Calls the tool on the server. Never rejects: every failure is an outcome. */
  async invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    const remoteName = this.toolList.remoteNames.get(invocation.toolName);
    if (remoteName === undefined)
      return standardFailure(
        'unknown_tool',
        `the MCP server '${this.serverName}' has no tool '${invocation.toolName}'`,
      );
    let connection: McpConnection;
    try {
      connection = await this.liveConnection();
    } catch (error) {
      return standardFailure(
        'unavailable',
        `the MCP server '${this.serverName}' could not be started again: ${messageOf(error)}`,
      );
    }
    const current = this.toolList.descriptors.find((descriptor) => descriptor.name === invocation.toolName);
    // The runner's descriptor is the provider's own object until the server changes the tool: compare only then.
    const stricter =
      current === undefined || current === invocation.descriptor
        ? undefined
        : stricterDeclaration(invocation.descriptor, current);
    if (stricter !== undefined)
      return standardFailure(
        'tool_changed',
        `the MCP server '${this.serverName}' changed '${invocation.toolName}' since the run was given it: ${stricter}; nothing was sent. Build the runner again from the provider's current tools.`,
      );
    const { CallToolResultSchema } = loadMcpSdk<McpSdkTypesModule>('types.js', 'McpToolProvider');
    const progressToken = `wuwe-${randomUUID()}`;
    connection.progressListeners.set(progressToken, (progress) =>
      invocation.reportHeartbeat({
        ...(progress.total === undefined || progress.total <= 0
          ? {}
          : { fraction: Math.min(1, progress.progress / progress.total) }),
        ...(progress.message === undefined ? {} : { message: progress.message }),
        details: { progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }) },
      }),
    );
    try {
      // A plain request: the runner validates `structuredContent` against the output schema, with its own codes.
      const params = { name: remoteName, arguments: invocation.arguments, _meta: { progressToken } };
      const result = await connection.client.request({ method: 'tools/call', params }, CallToolResultSchema, {
        signal: invocation.signal,
        // The runner's deadline cancels first; the SDK's own (60 s) must not cut a longer contract short.
        timeout: invocation.descriptor.timeoutMs + 5_000,
      });
      const current = this.toolList.descriptors.find((descriptor) => descriptor.name === invocation.toolName);
      return checkedAgainstCurrentDeclaration(invocation, current, this.serverName, outcomeFromMcpResult(result));
    } catch (error) {
      if (invocation.signal.aborted)
        return standardFailure('cancelled', `the call was cancelled on the MCP server '${this.serverName}'`);
      if (connection.closed()) return lostConnectionOutcome(invocation, this.serverName, error);
      return toolFailure({
        code: 'tool_error',
        category: 'internal',
        retryable: false,
        message: `the MCP server '${this.serverName}' answered with an error: ${messageOf(error)}`,
      });
    } finally {
      connection.progressListeners.delete(progressToken);
    }
  }

  /** Stops the server (stdio) or ends the session (HTTP). */
  async close(): Promise<void> {
    this.closing = true;
    const connection = this.connection;
    this.connection = undefined;
    await connection?.client.close();
  }

  /** The open connection, or a new one when the server went away (one restart for concurrent calls). */
  private liveConnection(): Promise<McpConnection> {
    if (this.closing) return Promise.reject(new Error('the provider was closed'));
    const current = this.connection;
    if (current !== undefined && !current.closed()) return Promise.resolve(current);
    this.reconnecting ??= (async () => {
      await current?.client.close().catch(() => undefined);
      const fresh = await connectMcpServer(this.options.server, 'wuwe', {
        timeoutMs: this.reading.timeoutMs,
        maxMessageBytes: this.reading.limits.maxMessageBytes,
      });
      this.connection = fresh;
      this.restartCount++;
      this.follow(fresh);
      // The server that came back may serve other tools, or declare other schemas: the call that started it
      // is checked against what it declares now.
      await this.refreshTools();
      return fresh;
    })().finally(() => {
      this.reconnecting = undefined;
    });
    return this.reconnecting;
  }

  /** Reads the list once; keeps the previous one when this one fails its checks or cannot be read. */
  private async readAgain(): Promise<void> {
    const connection = this.connection;
    if (connection === undefined || connection.closed() || this.closing) return;
    let next: ToolList;
    try {
      next = await readToolList(connection, this.reading);
    } catch (error) {
      this.refreshError = error instanceof Error ? error : new Error(String(error));
      return;
    }
    this.refreshError = undefined;
    if (sameTools(this.toolList, next)) return;
    this.toolList = next;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }

  private follow(connection: McpConnection): void {
    connection.onToolListChanged = () => {
      if (connection === this.connection) void this.refreshTools();
    };
  }
}
