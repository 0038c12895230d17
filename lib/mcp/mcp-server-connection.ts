import type { Client } from '@modelcontextprotocol/sdk/client/index.js' with { 'resolution-mode': 'import' };
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js' with { 'resolution-mode': 'import' };
import { McpSdkTypesModule, loadMcpSdk } from './load-mcp-sdk';

type SdkClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js', {
  with: { 'resolution-mode': 'import' },
});
type SdkStdioClientModule = typeof import('@modelcontextprotocol/sdk/client/stdio.js', {
  with: { 'resolution-mode': 'import' },
});
type SdkHttpClientModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js', {
  with: { 'resolution-mode': 'import' },
});
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
  /** The last few errors the transport reported (a message over its limit, a broken pipe), oldest first. */
  readonly recentErrors: () => readonly Error[];
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

/** How long {@link connectMcpServer} waits, and how much it reads. */
export interface McpConnectLimits {
  /** The handshake (`initialize`) must be answered within this time, or the connection is given up. */
  readonly timeoutMs: number;
  /**
   * Most bytes of the stdio child's output buffered at once; more closes the connection. @default the SDK's (10 MiB)
   */
  readonly maxMessageBytes?: number;
}

/**
 * Starts (stdio) or reaches (HTTP) a server and performs the MCP handshake.
 * Rejects when the server cannot be started or does not answer the handshake within `limits.timeoutMs`
 * (the child is then stopped, the HTTP request aborted).
 */
export async function connectMcpServer(
  server: McpServerOptions,
  clientName: string,
  limits: McpConnectLimits,
): Promise<McpConnection> {
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
      ...(limits.maxMessageBytes === undefined ? {} : { maxBufferSize: limits.maxMessageBytes }),
    });
  } else {
    const { StreamableHTTPClientTransport } = loadMcpSdk<SdkHttpClientModule>(
      'client/streamableHttp.js',
      'McpToolProvider',
    );
    const url = typeof server.url === 'string' ? new URL(server.url) : server.url;
    transport = new StreamableHTTPClientTransport(
      url,
      server.headers === undefined ? undefined : { requestInit: { headers: { ...server.headers } } },
    );
  }
  let closed = false;
  const errors: Error[] = [];
  client.onclose = () => {
    closed = true;
  };
  client.onerror = (error) => {
    errors.push(error);
    if (errors.length > 3) errors.shift();
  };
  await withTimeoutMessage(client.connect(transport, { timeout: limits.timeoutMs }), limits.timeoutMs);
  const progressListeners = new Map<string, (progress: McpProgress) => void>();
  const connection: McpConnection = {
    client,
    closed: () => closed,
    recentErrors: () => errors,
    pid: transport.pid ?? undefined,
    progressListeners,
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const params = (message as { method?: string; params?: Record<string, unknown> }).params;
    if ((message as { method?: string }).method === 'notifications/tools/list_changed') {
      connection.onToolListChanged?.();
      return;
    }
    if (
      (message as { method?: string }).method === 'notifications/progress' &&
      typeof params?.progressToken === 'string'
    ) {
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

/**
 * The request's answer; the SDK's timeout error becomes one that says how long was waited.
 * (The request is already cancelled by then.)
 */
export async function withTimeoutMessage<T>(request: Promise<T>, timeoutMs: number): Promise<T> {
  try {
    return await request;
  } catch (error) {
    const { ErrorCode } = loadMcpSdk<McpSdkTypesModule>('types.js', 'McpToolProvider');
    if ((error as { code?: unknown } | undefined)?.code === ErrorCode.RequestTimeout)
      throw new Error(`the MCP server did not answer within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
}
