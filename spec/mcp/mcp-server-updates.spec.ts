import 'reflect-metadata';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler, McpToolServer } from '../../lib/mcp';
import { composeToolProviders, ToolRegistry } from '../../lib';
import { eventually, Shout } from './fixtures/changing-tools';
import { Echo, provider } from './fixtures/served-tools';
import { connectHttp, listenHttp, sdkClient } from './mcp-support';

describe('listChanged: a provider whose tools change', () => {
  it('sends notifications/tools/list_changed to every connected client and serves the new tool', async () => {
    const registry = new ToolRegistry([Echo]);
    const handler = new McpHttpHandler(registry);
    const http = await listenHttp(handler);
    const first = await connectHttp(sdkClient(), http.url);
    const second = await connectHttp(sdkClient(), http.url);
    try {
      expect(first.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      const heard: string[] = [];
      first.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('first'));
      second.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('second'));
      expect((await first.listTools()).tools.map((tool) => tool.name)).toEqual(['Echo']);

      registry.register(Shout);
      await eventually(() => heard.length === 2);
      expect(heard.sort()).toEqual(['first', 'second']);
      expect((await first.listTools()).tools.map((tool) => tool.name)).toEqual(['Echo', 'Shout']);
      const result = (await second.callTool({ name: 'Shout', arguments: { text: 'hi' } })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'HI' }]);
    } finally {
      await first.close();
      await second.close();
      await http.close();
    }
  });

  it('follows a change inside a composite provider, and a closed server stops following', async () => {
    const registry = new ToolRegistry([]);
    const server = new McpToolServer(composeToolProviders(provider, registry));
    expect(server.listTools().some((tool) => tool.name === 'Shout')).toBe(false);
    registry.register(Shout);
    expect(server.listTools().some((tool) => tool.name === 'Shout')).toBe(true);
    server.close();
    const later = new ToolRegistry([]);
    const closed = new McpToolServer(later);
    closed.close();
    later.register(Shout);
    expect(closed.listTools()).toEqual([]);
  });

  it('does not announce listChanged for a provider with a fixed list', async () => {
    const handler = new McpHttpHandler({
      listTools: () => provider.listTools(),
      invokeTool: (invocation) => provider.invokeTool(invocation),
    });
    const http = await listenHttp(handler);
    const client = await connectHttp(sdkClient(), http.url);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({});
    } finally {
      await client.close();
      await http.close();
    }
  });

  it('answers the next tools/list with the error when the changed list is refused (a name offered twice)', () => {
    const registry = new ToolRegistry([]);
    const server = new McpToolServer(composeToolProviders(new ToolRegistry([Echo]), registry));
    registry.register(Echo);
    expect(() => server.listTools()).toThrow(/offered by two providers/);
    server.close();
  });
});

describe('McpHttpHandler authorize hook', () => {
  const seen: (string | undefined)[] = [];
  const handler = new McpHttpHandler(new ToolRegistry([Echo]), {
    authorize: (request) => {
      seen.push(request.headers.authorization);
      if (request.headers.authorization === 'Bearer boom') throw new Error('token service down');
      return Promise.resolve(request.headers.authorization === 'Bearer good');
    },
  });
  let http: Awaited<ReturnType<typeof listenHttp>>;
  beforeAll(async () => {
    http = await listenHttp(handler);
  });
  afterAll(() => http.close());

  const initialize = (authorization?: string) =>
    fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });

  it('answers 401 and opens no session without a valid credential, or when the hook throws', async () => {
    for (const authorization of [undefined, 'Bearer bad', 'Bearer boom']) {
      const response = await initialize(authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { message: 'unauthorized' } });
    }
    expect(handler.sessionCount).toBe(0);
    expect(seen).toEqual([undefined, 'Bearer bad', 'Bearer boom']);
  });

  it('serves the SDK client that sends the credential, and checks every request of the session', async () => {
    seen.length = 0;
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = sdkClient();
    await client.connect(
      new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer good' } } }),
    );
    try {
      const result = (await client.callTool({ name: 'Echo', arguments: { text: 'ok' } })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(seen.length).toBeGreaterThanOrEqual(3); // initialize, initialized, tools/call
      expect(seen.every((header) => header === 'Bearer good')).toBe(true);
      // A request into the open session without the credential is refused too.
      const sessionId = (client.transport as InstanceType<typeof StreamableHTTPClientTransport>).sessionId!;
      const stolen = await fetch(http.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'Echo', arguments: { text: 'x' } },
        }),
      });
      expect(stolen.status).toBe(401);
    } finally {
      await client.close();
    }
  });
});

describe('a failure of a tool with an outputSchema', () => {
  // Why wuwe's server leaves structuredContent out of such a failure: the SDK client validates any
  // structuredContent against the tool's outputSchema, errors included, and throws on a mismatch.
  it('would make the SDK client throw if the ok:false object were its structuredContent', async () => {
    const outputSchema = { type: 'object' as const, properties: { sum: { type: 'number' } }, required: ['sum'] };
    const server = new Server({ name: 'raw', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'add', inputSchema: { type: 'object' as const }, outputSchema }],
    }));
    const failure = { ok: false, error: { code: 'not_found', category: 'not_found', message: 'no', retryable: false } };
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: 'text', text: JSON.stringify(failure) }],
      isError: true,
      structuredContent: failure,
    }));
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = sdkClient();
    await client.connect(clientSide);
    try {
      await client.listTools();
      await expect(client.callTool({ name: 'add', arguments: {} })).rejects.toThrow(
        /does not match the tool's output schema/,
      );
    } finally {
      await client.close();
    }
  });

  it('is answered by wuwe with isError and the ok:false text, which the SDK client accepts', async () => {
    const handler = new McpHttpHandler(provider);
    const http = await listenHttp(handler);
    const client = await connectHttp(sdkClient(), http.url);
    try {
      await client.listTools();
      const result = (await client.callTool({ name: 'add', arguments: { a: 'two' } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
        ok: false,
        error: { code: 'invalid_arguments' },
      });
    } finally {
      await client.close();
      await http.close();
    }
  });
});
