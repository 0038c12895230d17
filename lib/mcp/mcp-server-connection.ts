import type { Client } from '@modelcontextprotocol/sdk/client/index.js' with { 'resolution-mode': 'import' };
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js' with { 'resolution-mode': 'import' };
import { loadMcpSdk } from './load-mcp-sdk';

type SdkClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js', { with: { 'resolution-mode': 'import' } });
type SdkStdioClientModule = typeof import('@modelcontextprotocol/sdk/client/stdio.js', { with: { 'resolution-mode': 'import' } });
type SdkHttpClientModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js', { with: { 'resolution-mode': 'import' } });

/** An MCP server run as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerOptions {
  readonly transport: 'stdio';
  /** The executable, e.g. `npx` or `process.execPath`. */
  readonly command: string;
  readonly args?: readonly string[];
  /** @default the SDK's safe subset of the parent's environment */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What happens to the child's stderr. @default 'inherit' */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerOptions {
  readonly transport: 'http';
  readonly url: string | URL;
  /** Extra request headers (authentication). @default none */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where an MCP server is. */
export type McpServerOptions = McpStdioServerOptions | McpHttpServerOptions;

/** A connected SDK client and the way to learn that its connection ended. */
export interface McpConnection {
  readonly client: Client;
  /** True once the connection closed (the child exited, the session ended). */
  readonly closed: () => boolean;
  /** The child's process id (stdio only). */
  readonly pid?: number;
  /**
   * Progress listeners by progress token. Progress is routed as it is read, in order: the SDK's own
   * routing runs a tick later and drops progress read together with its request's result.
   */
  readonly progressListeners: Map<string, (progress: McpProgress) => void>;
  /** Called for each `notifications/tools/list_changed` the server sends (set it after connecting). */
  onToolListChanged?: () => void;
}

/** One `notifications/progress`. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * Starts (stdio) or reaches (HTTP) a server and performs the MCP handshake.
 * Rejects when the server cannot be started or does not answer the handshake.
 */
export async function connectMcpServer(server: McpServerOptions, clientName: string): Promise<McpConnection> {
  const { Client: SdkClient } = loadMcpSdk<SdkClientModule>('client/index.js', 'McpToolProvider');
  const client = new SdkClient({ name: clientName, version: '0.1.0' }, { capabilities: {} });
  let transport: Transport & { pid?: number | null };
  if (server.transport === 'stdio') {
    const { StdioClientTransport } = loadMcpSdk<SdkStdioClientModule>('client/stdio.js', 'McpToolProvider');
    transport = new StdioClientTransport({
      command: server.command,
      args: server.args === undefined ? undefined : [...server.args],
      env: server.env === undefined ? undefined : { ...server.env },
      cwd: server.cwd,
      stderr: server.stderr ?? 'inherit',
    });
  } else {
    const { StreamableHTTPClientTransport } = loadMcpSdk<SdkHttpClientModule>('client/streamableHttp.js', 'McpToolProvider');
    const url = typeof server.url === 'string' ? new URL(server.url) : server.url;
    transport = new StreamableHTTPClientTransport(url, server.headers === undefined ? undefined : { requestInit: { headers: { ...server.headers } } });
  }
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  const progressListeners = new Map<string, (progress: McpProgress) => void>();
  const connection: McpConnection = { client, closed: () => closed, pid: transport.pid ?? undefined, progressListeners };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const params = (message as { method?: string; params?: Record<string, unknown> }).params;
    if ((message as { method?: string }).method === 'notifications/tools/list_changed') {
      connection.onToolListChanged?.();
      return;
    }
    if ((message as { method?: string }).method === 'notifications/progress' && typeof params?.progressToken === 'string') {
      const listener = progressListeners.get(params.progressToken);
      if (listener !== undefined && typeof params.progress === 'number')
        listener({
          progress: params.progress,
          ...(typeof params.total === 'number' ? { total: params.total } : {}),
          ...(typeof params.message === 'string' ? { message: params.message } : {}),
        });
      return;
    }
    deliver?.(message, extra);
  };
  return connection;
}
