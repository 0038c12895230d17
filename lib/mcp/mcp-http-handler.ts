import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolProvider } from '../providers/tool-provider';
import { loadMcpSdk } from './load-mcp-sdk';
import { McpToolServer, McpToolServerOptions } from './mcp-tool-server';

type SdkHttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/**
 * Serves a provider's tools over MCP Streamable HTTP, one session per client: mount
 * {@link McpHttpHandler.handle} on the MCP endpoint of a `node:http` server (or Express, which
 * hands over the same objects). Bind it to localhost or put authentication in front: anyone who
 * reaches the endpoint can call the tools the host policy allows.
 */
export class McpHttpHandler {
  /** The server every session uses. */
  readonly toolServer: McpToolServer;
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  constructor(provider: ToolProvider | McpToolServer, options: McpToolServerOptions = {}) {
    this.toolServer = provider instanceof McpToolServer ? provider : new McpToolServer(provider, options);
  }

  /** Sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Answers one HTTP request (POST, GET or DELETE on the endpoint). A request naming an unknown
   * session gets 404, as the protocol says, so the client starts a new one.
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const known = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (known !== undefined) return known.handleRequest(request, response);
    if (sessionId !== undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'unknown MCP session' }, id: null }));
      return;
    }
    const { StreamableHTTPServerTransport: Transport } = loadMcpSdk<SdkHttpModule>('server/streamableHttp.js', 'McpHttpHandler');
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    const server = this.toolServer.createServer();
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // Anything but an initialize request was refused by the transport: no session to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  /** Closes every session. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((transport) => transport.close()));
  }
}
