import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js' with {
  'resolution-mode': 'import',
};
import { ToolProvider } from '../providers/tool-provider';
import { loadMcpSdk } from './load-mcp-sdk';
import { McpHttpOriginPolicy, McpHttpRequestGuard } from './mcp-http-request-guard';
import { McpSessionLimits, resolveMcpSessionLimits } from './mcp-session-limits';
import { McpToolServer, McpToolServerOptions } from './mcp-tool-server';

type SdkHttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js', {
  with: { 'resolution-mode': 'import' },
});

/**
 * The answer of an {@link McpHttpAuthorizer}: `false` refuses; `true` admits; a non-empty string admits
 * the request as that principal (a user or client id), and binds a session it opens to it.
 */
export type McpHttpAuthorization = boolean | string;

/**
 * Decides whether an HTTP request may reach the MCP endpoint (a bearer token, a client certificate, ...), and as whom.
 */
export type McpHttpAuthorizer = (request: IncomingMessage) => McpHttpAuthorization | Promise<McpHttpAuthorization>;

/** Options of {@link McpHttpHandler}: the server's options, plus the endpoint's own. */
export interface McpHttpHandlerOptions extends McpToolServerOptions, McpSessionLimits, McpHttpOriginPolicy {
  /**
   * Asked for every request (initialize, calls, streams, session deletion) before anything else: a
   * request it answers `false` (or an empty string) for, or throws on, gets `401` and reaches no session
   * and no tool. When it names a principal, a session belongs to the principal that opened it: a request
   * of another principal (or of none) naming that session gets the `404` of an unknown session.
   * @default none: every request is served (bind to localhost)
   */
  readonly authorize?: McpHttpAuthorizer;
}

/** One open session: its transport, whom it belongs to, and when it was last used. */
interface McpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly principal: string | undefined;
  lastSeen: number;
  /** Requests of the session still being answered (an open event stream counts until it closes). */
  active: number;
}

const REFUSED = Symbol('refused');

/**
 * Serves a provider's tools over MCP Streamable HTTP, one session per client: mount
 * {@link McpHttpHandler.handle} on the MCP endpoint of a `node:http` server (or Express, which
 * hands over the same objects). Give it an `authorize` hook, or bind it to localhost: anyone who
 * reaches the endpoint can call the tools the host policy allows. Only loopback `Host`s and requests
 * without an `Origin` (or of the same origin) are answered unless `allowedHosts` / `allowedOrigins`
 * widen it, so a web page cannot reach the endpoint through the browser (DNS rebinding, cross-origin). Sessions are
 * bounded
 * (`maxSessions`) and closed after `sessionIdleTimeoutMs` without a request.
 */
export class McpHttpHandler {
  /** The server every session uses. */
  readonly toolServer: McpToolServer;
  private readonly sessions = new Map<string, McpSession>();
  private readonly authorize: McpHttpAuthorizer | undefined;
  private readonly guard: McpHttpRequestGuard;
  private readonly sdk: SdkHttpModule;
  private readonly limits: Readonly<Required<McpSessionLimits>>;
  private opening = 0;
  private sweeper: NodeJS.Timeout | undefined;

  /**
   * Serves `provider` (a server built with `options`), or an existing {@link McpToolServer}.
   * @throws McpSetupError `invalid_server_options` for session limits out of range, or an allowed host
   *   or origin that is not one.
   * @throws MissingDependencyError `missing_dependency` when `@modelcontextprotocol/sdk` is not installed.
   */
  constructor(provider: ToolProvider | McpToolServer, options: McpHttpHandlerOptions = {}) {
    this.sdk = loadMcpSdk<SdkHttpModule>('server/streamableHttp.js', 'McpHttpHandler');
    this.limits = resolveMcpSessionLimits(options);
    this.guard = new McpHttpRequestGuard(options);
    this.toolServer = McpToolServer.isInstance(provider) ? provider : new McpToolServer(provider, options);
    this.authorize = options.authorize;
  }

  /** Sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Answers one HTTP request (POST, GET or DELETE on the endpoint). A request naming an unknown
   * session, or a session of another principal, gets 404, as the protocol says, so the client starts a
   * new one. A request with a `Host` or `Origin` the policy does not allow gets 403 first (see
   * {@link McpHttpOriginPolicy}); one the `authorize` hook refuses, 401; a new session beyond
   * `maxSessions`, 503. A session answers only requests with the `Host` it was opened with.
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const forbidden = this.guard.refusal(request);
    if (forbidden !== undefined) return refuse(response, 403, forbidden);
    const principal = this.authorize === undefined ? undefined : await this.principalOf(request);
    if (principal === REFUSED) return refuse(response, 401, 'unauthorized');
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (session === undefined || session.principal !== principal) return refuse(response, 404, 'unknown MCP session');
      return this.serve(session, request, response);
    }
    if (this.sessions.size + this.opening >= this.limits.maxSessions) this.closeIdle();
    if (this.sessions.size + this.opening >= this.limits.maxSessions) {
      response.setHeader('retry-after', '5');
      return refuse(response, 503, `too many MCP sessions (at most ${this.limits.maxSessions})`);
    }
    this.opening++;
    try {
      await this.open(principal, request, response);
    } finally {
      this.opening--;
    }
  }

  /** Closes every session. */
  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((session) => session.transport.close()));
  }

  private async open(principal: string | undefined, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { StreamableHTTPServerTransport: Transport } = this.sdk;
    const origin = request.headers.origin;
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      // The SDK's own check as well: the session answers only the Host (and Origin) that opened it.
      enableDnsRebindingProtection: true,
      allowedHosts: [request.headers.host!],
      ...(origin === undefined ? {} : { allowedOrigins: [origin] }),
      onsessioninitialized: (id) => {
        // The initialize request is the session's first: it is active until its response is done.
        const session: McpSession = { transport, principal, lastSeen: Date.now(), active: 1 };
        response.once('close', () => {
          session.active--;
          session.lastSeen = Date.now();
        });
        this.sessions.set(id, session);
        this.startSweeping();
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

  private async serve(session: McpSession, request: IncomingMessage, response: ServerResponse): Promise<void> {
    session.active++;
    session.lastSeen = Date.now();
    response.once('close', () => {
      session.active--;
      session.lastSeen = Date.now();
    });
    return session.transport.handleRequest(request, response);
  }

  /**
   * The hook's principal (`undefined` for a plain `true`), or {@link REFUSED}; a hook that throws refuses (fail
   * closed).
   */
  private async principalOf(request: IncomingMessage): Promise<string | undefined | typeof REFUSED> {
    try {
      const answer = await this.authorize!(request);
      if (answer === true) return undefined;
      return typeof answer === 'string' && answer !== '' ? answer : REFUSED;
    } catch {
      return REFUSED;
    }
  }

  /** Closes the sessions idle for `sessionIdleTimeoutMs` (no request, no open stream). */
  private closeIdle(): void {
    const before = Date.now() - this.limits.sessionIdleTimeoutMs;
    for (const [id, session] of this.sessions)
      if (session.active === 0 && session.lastSeen <= before) {
        this.sessions.delete(id);
        void session.transport.close().catch(() => undefined);
      }
    if (this.sessions.size === 0 && this.sweeper !== undefined) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private startSweeping(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(
      () => this.closeIdle(),
      Math.max(10, Math.min(this.limits.sessionIdleTimeoutMs / 4, 60_000)),
    );
    this.sweeper.unref();
  }
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}
