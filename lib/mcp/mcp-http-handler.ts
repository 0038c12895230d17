import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolProvider } from '../providers/tool-provider';
import { loadMcpSdk } from './load-mcp-sdk';
import { McpToolServer, McpToolServerOptions } from './mcp-tool-server';

type SdkHttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/** Decides whether an HTTP request may reach the MCP endpoint (a bearer token, a client certificate, ...). */
export type McpHttpAuthorizer = (request: IncomingMessage) => boolean | Promise<boolean>;

/** Options of {@link McpHttpHandler}: the server's options, plus the endpoint's own. */
export interface McpHttpHandlerOptions extends McpToolServerOptions {
  /**
   * Asked for every request (initialize, calls, streams, session deletion) before anything else: a
   * request it answers `false` for, or throws on, gets `401` and reaches no session and no tool.
   * @default none: every request is served (bind to localhost)
   */
  readonly authorize?: McpHttpAuthorizer;
}

/**
 * Serves a provider's tools over MCP Streamable HTTP, one session per client: mount
 * {@link McpHttpHandler.handle} on the MCP endpoint of a `node:http` server (or Express, which
 * hands over the same objects). Give it an `authorize` hook, or bind it to localhost: anyone who
 * reaches the endpoint can call the tools the host policy allows.
 */
export class McpHttpHandler {
  /** The server every session uses. */
  readonly toolServer: McpToolServer;
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  private readonly authorize: McpHttpAuthorizer | undefined;

  /** Serves `provider` (a server built with `options`), or an existing {@link McpToolServer}. */
  constructor(provider: ToolProvider | McpToolServer, options: McpHttpHandlerOptions = {}) {
    this.toolServer = provider instanceof McpToolServer ? provider : new McpToolServer(provider, options);
    this.authorize = options.authorize;
  }

  /** Sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Answers one HTTP request (POST, GET or DELETE on the endpoint). A request naming an unknown
   * session gets 404, as the protocol says, so the client starts a new one. A request the
   * `authorize` hook refuses gets 401.
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.authorize !== undefined && !(await this.authorized(request))) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'unauthorized' }, id: null }));
      return;
    }
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

  /** The hook's answer; a hook that throws refuses (fail closed). */
  private async authorized(request: IncomingMessage): Promise<boolean> {
    try {
      return (await this.authorize!(request)) === true;
    } catch {
      return false;
    }
  }

  /** Closes every session. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((transport) => transport.close()));
  }
}
