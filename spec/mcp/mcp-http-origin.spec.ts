import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { McpHttpHandler, McpSetupError } from '../../lib/mcp';
import { ToolRegistry } from '../../lib';
import { Echo } from './fixtures/served-tools';
import { listenHttp } from './mcp-support';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One raw HTTP request with exactly the headers given (the Host header included), read to its end; an
 * event stream is read up to its first event (a POST's answer) or, for a GET, only up to its headers.
 */
function send(url: URL, method: string, headers: Record<string, string | undefined>, body?: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        setHost: false,
        headers: { ...definedOnly(headers), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const stream = (response.headers['content-type'] ?? '').includes('text/event-stream');
        if (stream && method === 'GET') {
          response.destroy();
          return resolve({ status, headers: response.headers, body: '' });
        }
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (stream && /data: .*\n\n/.test(text)) {
            response.destroy();
            resolve({ status, headers: response.headers, body: text });
          }
        });
        response.on('end', () => resolve({ status, headers: response.headers, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function definedOnly(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

const ACCEPT = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'x', version: '1' },
  },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'Echo', arguments: { text: 'x' } } };

function expectForbidden(answer: Answer, reason: RegExp): void {
  expect(answer.status).toBe(403);
  const body = JSON.parse(answer.body) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null });
  expect(body.error.message).toMatch(reason);
}

describe('McpHttpHandler refuses DNS rebinding and cross-origin requests', () => {
  const handler = new McpHttpHandler(new ToolRegistry([Echo]));
  let http: Awaited<ReturnType<typeof listenHttp>>;
  let port: string;
  beforeAll(async () => {
    http = await listenHttp(handler);
    port = http.url.port;
  });
  afterAll(() => http.close());

  async function openSession(host = `127.0.0.1:${port}`): Promise<string> {
    const opened = await send(http.url, 'POST', { ...ACCEPT, host }, initialize);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers['mcp-session-id'] as string;
    expect((await send(http.url, 'POST', { ...ACCEPT, host, 'mcp-session-id': sessionId }, initialized)).status).toBe(
      202,
    );
    return sessionId;
  }

  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'attacker.example:PORT' }, /host/i],
    ['a foreign Host with a trailing dot', { host: 'attacker.example.:PORT' }, /host/i],
    ['a foreign Host and Origin', { host: 'attacker.example:PORT', origin: 'http://attacker.example:PORT' }, /host/i],
    ['a loopback Host with a foreign Origin', { host: '127.0.0.1:PORT', origin: 'http://attacker.example' }, /origin/i],
    [
      'a loopback Host with the Origin of another local port',
      { host: 'localhost:PORT', origin: 'http://localhost:1' },
      /origin/i,
    ],
    ['an opaque Origin', { host: '127.0.0.1:PORT', origin: 'null' }, /origin/i],
    ['a Host that smuggles a user part', { host: 'attacker.example@127.0.0.1:PORT' }, /host/i],
    ['a loopback name as a subdomain', { host: 'localhost.attacker.example:PORT' }, /host/i],
  ])('refuses initialize with %s (403, a JSON-RPC error), and opens no session', async (_name, headers, reason) => {
    const forged = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, value.replace('PORT', port)]),
    );
    expectForbidden(await send(http.url, 'POST', { ...ACCEPT, ...forged }, initialize), reason);
    expect(handler.sessionCount).toBe(0);
  });

  it('refuses a request without a Host header', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(Number(port), '127.0.0.1', () => {
        const body = JSON.stringify(initialize);
        socket.end(
          `POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/);
    expect(answer).toMatch(/"message":"[^"]*host/i);
    expect(handler.sessionCount).toBe(0);
  });

  it('refuses every request of an open session that comes with a foreign Host or Origin (POST, GET stream, DELETE); the session survives', async () => {
    const sessionId = await openSession();
    try {
      const session = { ...ACCEPT, 'mcp-session-id': sessionId };
      for (const forged of [
        { host: `attacker.example:${port}` },
        { host: `127.0.0.1:${port}`, origin: 'http://attacker.example' },
      ]) {
        expectForbidden(await send(http.url, 'POST', { ...session, ...forged }, call), /host|origin/i);
        expectForbidden(
          await send(http.url, 'GET', { ...session, ...forged, accept: 'text/event-stream' }),
          /host|origin/i,
        );
        expectForbidden(await send(http.url, 'DELETE', { ...session, ...forged }), /host|origin/i);
      }
      expect(handler.sessionCount).toBe(1);
      const served = await send(http.url, 'POST', { ...session, host: `127.0.0.1:${port}` }, call);
      expect(served.status).toBe(200);
      expect(served.body).toContain('"text":"x"');
    } finally {
      expect(
        (await send(http.url, 'DELETE', { ...ACCEPT, host: `127.0.0.1:${port}`, 'mcp-session-id': sessionId })).status,
      ).toBe(200);
    }
    expect(handler.sessionCount).toBe(0);
  });

  it.each([
    ['127.0.0.1:PORT', undefined],
    ['localhost:PORT', undefined],
    ['LOCALHOST.:PORT', undefined],
    ['[::1]:PORT', undefined],
    ['localhost:PORT', 'http://localhost:PORT'],
    ['127.0.0.1:PORT', 'http://127.0.0.1:PORT'],
  ])('serves Host %s with Origin %s (loopback, no or the same origin) on every request kind', async (host, origin) => {
    const headers = {
      host: host.replace('PORT', port),
      ...(origin === undefined ? {} : { origin: origin.replace('PORT', port) }),
    };
    const sessionId = await openSession(headers.host);
    const session = { ...ACCEPT, ...headers, 'mcp-session-id': sessionId };
    expect((await send(http.url, 'POST', session, call)).status).toBe(200);
    expect((await send(http.url, 'GET', { ...session, accept: 'text/event-stream' })).status).toBe(200);
    expect((await send(http.url, 'DELETE', session)).status).toBe(200);
    expect(handler.sessionCount).toBe(0);
  });

  it('binds a session to the Host it was opened with (the SDK transport checks it too)', async () => {
    const sessionId = await openSession(`127.0.0.1:${port}`);
    const other = await send(
      http.url,
      'POST',
      { ...ACCEPT, host: `localhost:${port}`, 'mcp-session-id': sessionId },
      call,
    );
    expect(other.status).toBe(403);
    expect(
      (await send(http.url, 'DELETE', { ...ACCEPT, host: `127.0.0.1:${port}`, 'mcp-session-id': sessionId })).status,
    ).toBe(200);
  });
});

describe('McpHttpHandler allowedHosts and allowedOrigins', () => {
  it('widens the loopback default with the hosts and origins given, and nothing else', async () => {
    const handler = new McpHttpHandler(new ToolRegistry([Echo]), {
      allowedHosts: ['MCP.Example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    const http = await listenHttp(handler);
    try {
      const admitted = await send(
        http.url,
        'POST',
        { ...ACCEPT, host: 'mcp.example.com.', origin: 'https://APP.example.com:443' },
        initialize,
      );
      expect(admitted.status).toBe(200);
      expect((await send(http.url, 'POST', { ...ACCEPT, host: `127.0.0.1:${http.url.port}` }, initialize)).status).toBe(
        200,
      );
      expectForbidden(
        await send(
          http.url,
          'POST',
          { ...ACCEPT, host: 'mcp.example.com', origin: 'http://app.example.com' },
          initialize,
        ),
        /origin/i,
      );
      expectForbidden(await send(http.url, 'POST', { ...ACCEPT, host: 'other.example.com' }, initialize), /host/i);
      expect(handler.sessionCount).toBe(2);
    } finally {
      await http.close();
    }
  });

  it.each([
    [{ allowedHosts: ['mcp.example.com:8080'] }],
    [{ allowedHosts: ['https://mcp.example.com'] }],
    [{ allowedHosts: [''] }],
    [{ allowedOrigins: ['null'] }],
    [{ allowedOrigins: ['app.example.com'] }],
    [{ allowedOrigins: ['https://app.example.com/path'] }],
  ])('refuses %j as McpSetupError invalid_server_options', (options) => {
    expect(() => new McpHttpHandler(new ToolRegistry([Echo]), options)).toThrow(McpSetupError);
    expect(() => new McpHttpHandler(new ToolRegistry([Echo]), options)).toThrow(
      expect.objectContaining({ code: 'invalid_server_options' }),
    );
  });
});
