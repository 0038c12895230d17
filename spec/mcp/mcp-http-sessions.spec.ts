import 'reflect-metadata';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpHttpHandler, McpSetupError } from '../../lib/mcp';
import { ToolRegistry } from '../../lib';
import { Echo } from './fixtures/served-tools';
import { listenHttp, sdkClient } from './mcp-support';

/** Bearer tokens of two users; anything else is refused. */
const principals: Record<string, string> = { 'Bearer alice-token': 'alice', 'Bearer bob-token': 'bob' };

function post(url: URL, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};
const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'Echo', arguments: { text: 'x' } } };

async function connect(url: URL, authorization: string) {
  const client = sdkClient();
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization } } }));
  return { client, sessionId: (client.transport as StreamableHTTPClientTransport).sessionId! };
}

describe('McpHttpHandler sessions belong to the principal that opened them', () => {
  const handler = new McpHttpHandler(new ToolRegistry([Echo]), {
    authorize: (request) => principals[request.headers.authorization ?? ''] ?? false,
  });
  let http: Awaited<ReturnType<typeof listenHttp>>;
  beforeAll(async () => {
    http = await listenHttp(handler);
  });
  afterAll(() => http.close());

  it('serves each user in their own session, and answers another user naming that session as an unknown one (404), without running the tool', async () => {
    const alice = await connect(http.url, 'Bearer alice-token');
    try {
      expect(
        ((await alice.client.callTool({ name: 'Echo', arguments: { text: 'mine' } })) as CallToolResult).content,
      ).toEqual([{ type: 'text', text: 'mine' }]);
      const hijack = await post(http.url, call, {
        authorization: 'Bearer bob-token',
        'mcp-session-id': alice.sessionId,
      });
      expect(hijack.status).toBe(404);
      expect(await hijack.json()).toMatchObject({ error: { message: 'unknown MCP session' } });
      const deletion = await fetch(http.url, {
        method: 'DELETE',
        headers: { authorization: 'Bearer bob-token', 'mcp-session-id': alice.sessionId },
      });
      expect(deletion.status).toBe(404);
      // Alice's session survived both, and still serves her.
      expect(
        ((await alice.client.callTool({ name: 'Echo', arguments: { text: 'still' } })) as CallToolResult).content,
      ).toEqual([{ type: 'text', text: 'still' }]);
    } finally {
      await alice.client.close();
    }
  });

  it('refuses an empty principal as it refuses false', async () => {
    const empty = new McpHttpHandler(new ToolRegistry([Echo]), { authorize: () => '' });
    const server = await listenHttp(empty);
    try {
      expect((await post(server.url, initialize)).status).toBe(401);
      expect(empty.sessionCount).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('McpHttpHandler session limits', () => {
  it('answers 503 beyond maxSessions, and takes a new client again once a session is closed', async () => {
    const handler = new McpHttpHandler(new ToolRegistry([Echo]), { maxSessions: 2 });
    const http = await listenHttp(handler);
    const clients = [];
    try {
      for (let i = 0; i < 2; i++) clients.push((await connect(http.url, 'x')).client);
      const third = await post(http.url, initialize);
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('5');
      expect(await third.json()).toMatchObject({ error: { message: 'too many MCP sessions (at most 2)' } });
      expect(handler.sessionCount).toBe(2);
      await (clients.shift()!.transport as StreamableHTTPClientTransport).terminateSession();
      clients.push((await connect(http.url, 'x')).client);
      expect(handler.sessionCount).toBe(2);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await http.close();
    }
  });

  it('closes a session idle for sessionIdleTimeoutMs (no request, no open stream); its next request gets 404', async () => {
    const handler = new McpHttpHandler(new ToolRegistry([Echo]), { sessionIdleTimeoutMs: 150 });
    const http = await listenHttp(handler);
    try {
      const opened = await post(http.url, initialize);
      expect(opened.status).toBe(200);
      await opened.text();
      const sessionId = opened.headers.get('mcp-session-id')!;
      expect(handler.sessionCount).toBe(1);
      const deadline = Date.now() + 5_000;
      while (handler.sessionCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(handler.sessionCount).toBe(0);
      expect((await post(http.url, call, { 'mcp-session-id': sessionId })).status).toBe(404);
    } finally {
      await handler.close();
      await http.close();
    }
  });

  it('keeps a session whose client holds its event stream open, however long it is quiet', async () => {
    const handler = new McpHttpHandler(new ToolRegistry([Echo]), { sessionIdleTimeoutMs: 500 });
    const http = await listenHttp(handler);
    const client = sdkClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(http.url));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(handler.sessionCount).toBe(1);
      expect(
        ((await client.callTool({ name: 'Echo', arguments: { text: 'awake' } })) as CallToolResult).content,
      ).toEqual([{ type: 'text', text: 'awake' }]);
    } finally {
      await client.close();
      await handler.close();
      await http.close();
    }
  });

  it('refuses limits that are not positive integers', () => {
    for (const limits of [
      { maxSessions: 0 },
      { maxSessions: 1.5 },
      { sessionIdleTimeoutMs: -1 },
      { sessionIdleTimeoutMs: Number.NaN },
    ])
      expect(() => new McpHttpHandler(new ToolRegistry([Echo]), limits)).toThrow(McpSetupError);
  });
});
