import { randomUUID } from 'node:crypto';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { messageOf } from '../errors/message-of';
import { MissingDependencyError } from '../errors/optional-dependency';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from '../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities, ToolsChangedListener } from '../providers/tool-provider';
import { compileInputValidator, compileOutputValidator } from '../validation/schema-validator';
import { loadMcpSdk } from './load-mcp-sdk';
import { outcomeFromMcpResult } from './mcp-call-outcome';
import { connectMcpServer, McpConnection, McpServerOptions } from './mcp-server-connection';
import { McpSetupError } from './mcp-setup-error';
import { descriptorFromMcpTool, McpToolContractOptions } from './mcp-tool-descriptor';

type SdkTypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

/** Options of {@link McpToolProvider.connect}. */
export interface McpToolProviderOptions extends McpToolContractOptions {
  /** The server: a child process (`stdio`) or an endpoint (`http`). */
  readonly server: McpServerOptions;
  /** Name of the server in descriptor metadata and messages. @default the name the server announces */
  readonly name?: string;
}

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
    /** The name of the server, from the options or its announcement. */
    readonly serverName: string,
    connection: McpConnection,
    private toolList: ToolList,
  ) {
    this.connection = connection;
    this.follow(connection);
  }

  /**
   * Starts or reaches the server, lists its tools and checks their schemas.
   * @throws MissingDependencyError `missing_dependency` when `@modelcontextprotocol/sdk` is not installed.
   * @throws McpSetupError `server_unreachable` when the server cannot be started or reached,
   *   `duplicate_tool` when two tools get one name, `invalid_server_options` when a tool's schema
   *   cannot be compiled (wuwe validates every call against it).
   */
  static async connect(options: McpToolProviderOptions): Promise<McpToolProvider> {
    let connection: McpConnection;
    try {
      connection = await connectMcpServer(options.server, 'wuwe');
    } catch (error) {
      if (MissingDependencyError.isInstance(error)) throw error;
      throw new McpSetupError('server_unreachable', `the MCP server could not be started or reached: ${messageOf(error)}`, { cause: error });
    }
    try {
      const serverName = options.name ?? connection.client.getServerVersion()?.name ?? 'mcp';
      return new McpToolProvider(options, serverName, connection, await readToolList(connection, serverName, options));
    } catch (error) {
      await connection.client.close().catch(() => undefined);
      throw error;
    }
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
    if (remoteName === undefined) return standardFailure('unknown_tool', `the MCP server '${this.serverName}' has no tool '${invocation.toolName}'`);
    let connection: McpConnection;
    try {
      connection = await this.liveConnection();
    } catch (error) {
      return standardFailure('unavailable', `the MCP server '${this.serverName}' could not be started again: ${messageOf(error)}`);
    }
    const { CallToolResultSchema } = loadMcpSdk<SdkTypesModule>('types.js', 'McpToolProvider');
    const progressToken = `wuwe-${randomUUID()}`;
    connection.progressListeners.set(progressToken, (progress) =>
      invocation.reportHeartbeat({
        ...(progress.total === undefined || progress.total <= 0 ? {} : { fraction: Math.min(1, progress.progress / progress.total) }),
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
      return outcomeFromMcpResult(result);
    } catch (error) {
      if (invocation.signal.aborted) return standardFailure('cancelled', `the call was cancelled on the MCP server '${this.serverName}'`);
      if (connection.closed()) return this.lostConnectionOutcome(invocation, error);
      return toolFailure({ code: 'tool_error', category: 'internal', retryable: false, message: `the MCP server '${this.serverName}' answered with an error: ${messageOf(error)}` });
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

  private lostConnectionOutcome(invocation: ToolInvocation, error: unknown): ToolOutcome {
    const message = `the MCP server '${this.serverName}' went away during the call (${messageOf(error)}); it is started again on the next call`;
    const safe = invocation.descriptor.sideEffect === 'read' || invocation.descriptor.sideEffect === 'none' || invocation.descriptor.idempotency === 'idempotent';
    return safe ? standardFailure('unavailable', message) : standardFailure('outcome_unknown', `${message}; whether '${invocation.toolName}' took effect is unknown`);
  }

  /** The open connection, or a new one when the server went away (one restart for concurrent calls). */
  private liveConnection(): Promise<McpConnection> {
    if (this.closing) return Promise.reject(new Error('the provider was closed'));
    const current = this.connection;
    if (current !== undefined && !current.closed()) return Promise.resolve(current);
    this.reconnecting ??= (async () => {
      await current?.client.close().catch(() => undefined);
      const fresh = await connectMcpServer(this.options.server, 'wuwe');
      this.connection = fresh;
      this.restartCount++;
      this.follow(fresh);
      // The server that came back may serve other tools.
      void this.refreshTools();
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
      next = await readToolList(connection, this.serverName, this.options);
    } catch (error) {
      this.refreshError = error instanceof Error ? error : new Error(String(error));
      return;
    }
    this.refreshError = undefined;
    if (sameTools(this.toolList.descriptors, next.descriptors)) return;
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

/** The checked tools of a server: their descriptors and the server's name of each. */
interface ToolList {
  readonly descriptors: readonly ToolDescriptor[];
  readonly remoteNames: ReadonlyMap<string, string>;
}

/**
 * Lists and checks every tool of the server.
 * @throws McpSetupError `duplicate_tool`, `invalid_server_options` (a schema that cannot be compiled).
 */
async function readToolList(connection: McpConnection, serverName: string, options: McpToolContractOptions): Promise<ToolList> {
  const descriptors: ToolDescriptor[] = [];
  const remoteNames = new Map<string, string>();
  for (const tool of await listAllTools(connection)) {
    const descriptor = describe(tool, serverName, options);
    if (remoteNames.has(descriptor.name)) throw new McpSetupError('duplicate_tool', `the MCP server '${serverName}' lists tool '${descriptor.name}' twice`);
    remoteNames.set(descriptor.name, tool.name);
    descriptors.push(descriptor);
  }
  return { descriptors: Object.freeze(descriptors), remoteNames };
}

/** Whether two lists describe the same tools (names, schemas and contracts). */
function sameTools(a: readonly ToolDescriptor[], b: readonly ToolDescriptor[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

async function listAllTools(connection: McpConnection): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await connection.client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function describe(tool: McpTool, serverName: string, options: McpToolContractOptions): ToolDescriptor {
  const descriptor = descriptorFromMcpTool(tool, serverName, options);
  try {
    compileInputValidator(descriptor.inputSchema);
    if (descriptor.outputSchema !== undefined) compileOutputValidator(descriptor.outputSchema);
  } catch (error) {
    throw new McpSetupError('invalid_server_options', `the schemas of tool '${tool.name}' of the MCP server '${serverName}' cannot be compiled: ${messageOf(error)}`, { cause: error });
  }
  return descriptor;
}
