import type { Readable, Writable } from 'node:stream';
import { ToolProvider } from '../providers/tool-provider';
import { loadMcpSdk } from './load-mcp-sdk';
import { McpToolServer, McpToolServerOptions } from './mcp-tool-server';

type SdkStdioModule = typeof import('@modelcontextprotocol/sdk/server/stdio.js', {
  with: { 'resolution-mode': 'import' },
});

/** Options of {@link serveToolsOverStdio}. */
export interface McpStdioServeOptions extends McpToolServerOptions {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout (nothing else may write to it) */
  readonly stdout?: Writable;
}

/** A running MCP server; `close()` disconnects it. */
export interface McpServing {
  readonly toolServer: McpToolServer;
  /** Disconnects the server. */
  close(): Promise<void>;
}

/**
 * Serves a provider's tools over stdio, as MCP hosts run local servers (one client, the parent
 * process). Resolves once the server listens.
 */
export async function serveToolsOverStdio(
  provider: ToolProvider | McpToolServer,
  options: McpStdioServeOptions = {},
): Promise<McpServing> {
  const toolServer = McpToolServer.isInstance(provider) ? provider : new McpToolServer(provider, options);
  const { StdioServerTransport } = loadMcpSdk<SdkStdioModule>('server/stdio.js', 'serveToolsOverStdio');
  const server = toolServer.createServer();
  await server.connect(new StdioServerTransport(options.stdin, options.stdout));
  return { toolServer, close: () => server.close() };
}
