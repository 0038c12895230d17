import type { IncomingMessage } from 'node:http';
import { McpSetupError } from './mcp-setup-error';

/** Which `Host` and `Origin` headers an {@link McpHttpHandler} answers; everything else gets 403. */
export interface McpHttpOriginPolicy {
  /**
   * Host names (no scheme, no port) the endpoint answers besides the loopback ones, compared without
   * case and without a trailing dot: `['mcp.example.com']`. A request whose `Host` names any other host
   * (a DNS rebinding attack: a page whose name now resolves to this machine) gets 403 before anything
   * else. A server bound to an address other than loopback must list the names its clients use.
   * @default none: only `localhost`, `127.0.0.1` and `[::1]`, on any port
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`) whose pages may call the endpoint from a browser:
   * `['https://app.example.com']`. A request without `Origin` (not a browser) is admitted, and so is one
   * whose `Origin` has the request's own host and port; any other `Origin`, `null` (a sandboxed or
   * `file:` page) included, gets 403, as the MCP specification requires.
   * @default none: only requests without an `Origin` or of the same origin
   */
  readonly allowedOrigins?: readonly string[];
}

/** The host names every {@link McpHttpHandler} answers: the loopback ones. */
export const LOOPBACK_HOST_NAMES: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

/**
 * A `Host` header: a name, an IPv4 address or a bracketed IPv6 address, then an optional port. Nothing else (no user
 * part, no path).
 */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)(?::(\d{1,5}))?$/i;

/** A checked request's host, as the guard compares it. */
interface RequestHost {
  /** Lower case, no trailing dot, IPv6 in brackets. */
  readonly name: string;
  /** The port the header names, or `undefined`. */
  readonly port: string | undefined;
}

/**
 * Checks the `Host` and `Origin` of every request against an {@link McpHttpOriginPolicy}, loopback
 * included by default.
 */
export class McpHttpRequestGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  /**
   * @throws McpSetupError `invalid_server_options` for a host with a scheme or port, or an origin that is not
   * `scheme://host[:port]`.
   */
  constructor(policy: McpHttpOriginPolicy = {}) {
    this.hosts = new Set([...LOOPBACK_HOST_NAMES, ...(policy.allowedHosts ?? []).map(allowedHostName)]);
    this.origins = new Set((policy.allowedOrigins ?? []).map(allowedOrigin));
  }

  /** Why the request must be refused (the 403 message), or `undefined` when it may go on. */
  refusal(request: IncomingMessage): string | undefined {
    const hostHeader = request.headers.host;
    if (hostHeader === undefined || hostHeader === '') return 'missing Host header';
    const host = parseHostHeader(hostHeader);
    if (host === undefined || !this.hosts.has(host.name)) return `Host '${hostHeader}' is not allowed`;
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    return this.originAllowed(origin, host) ? undefined : `Origin '${origin}' is not allowed`;
  }

  private originAllowed(origin: string, host: RequestHost): boolean {
    const url = parseOrigin(origin);
    if (url === undefined) return false;
    if (this.origins.has(url.origin)) return true;
    // The same origin: the page was served by this host and port (through TLS or not).
    const defaultPort = url.protocol === 'https:' ? '443' : '80';
    return stripTrailingDot(url.hostname) === host.name && (url.port || defaultPort) === (host.port ?? defaultPort);
  }
}

function parseHostHeader(header: string): RequestHost | undefined {
  const match = HOST_HEADER.exec(header);
  if (match === null) return undefined;
  return { name: stripTrailingDot(match[1].toLowerCase()), port: match[2] };
}

/**
 * An `Origin` header as a URL: `http:` or `https:`, a host, no path, no user part; `undefined` for anything else
 * (`null` included).
 */
function parseOrigin(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const plain =
    (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && `${url.origin}/` === url.href;
  return plain ? url : undefined;
}

function allowedHostName(name: string): string {
  const trimmed = name.trim().toLowerCase();
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  const host = parseHostHeader(bracketed);
  if (host === undefined || host.port !== undefined || host.name === '')
    throw new McpSetupError(
      'invalid_server_options',
      `allowedHosts lists host names without scheme or port (e.g. 'mcp.example.com'), got '${name}'`,
    );
  return host.name;
}

function allowedOrigin(origin: string): string {
  const url = parseOrigin(origin);
  if (url === undefined)
    throw new McpSetupError(
      'invalid_server_options',
      `allowedOrigins lists origins as scheme://host[:port] (e.g. 'https://app.example.com'), got '${origin}'`,
    );
  return url.origin;
}

function stripTrailingDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
