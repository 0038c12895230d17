import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler, McpToolProvider } from '../../lib/mcp';
import { ToolRegistry, LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { eventually, Shout, Whisper } from './fixtures/changing-tools';
import { Echo } from './fixtures/served-tools';
import { listenHttp } from './mcp-support';

describe('McpToolProvider follows the tool list of the server it consumes', () => {
  it('lists the tools again on notifications/tools/list_changed, tells its listeners, and runs the new tool', async () => {
    const registry = new ToolRegistry([Echo]);
    const http = await listenHttp(new McpHttpHandler(registry));
    const provider = await McpToolProvider.connect({ server: { transport: 'http', url: http.url } });
    try {
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['Echo']);
      let heard = 0;
      const unsubscribe = provider.onToolsChanged(() => void heard++);
      registry.register(Shout);
      await eventually(() => heard === 1);
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['Echo', 'Shout']);
      expect(provider.lastRefreshError).toBeUndefined();

      // The runner reaches the new tool through the provider.
      const runner = new LlmAgentRunner(
        new ScriptedModelClient([
          { toolCalls: [{ id: 'c1', name: 'Shout', arguments: '{"text":"hi"}' }] },
          { text: 'done' },
        ]),
        provider,
      );
      const result = await runner.complete('shout hi');
      expect(result.toolCalls[0].outcome).toMatchObject({ ok: true, text: 'HI' });

      // A refresh that finds the same list tells nobody; an unsubscribed listener hears nothing more.
      await provider.refreshTools();
      expect(heard).toBe(1);
      unsubscribe();
      registry.register(Whisper);
      await eventually(() => provider.listTools().length === 3);
      expect(heard).toBe(1);
    } finally {
      await provider.close();
      await http.close();
    }
  });

  it('keeps the previous list when the new one fails its checks, and says why', async () => {
    const add = { name: 'add', inputSchema: { type: 'object' as const } };
    let tools = [add];
    const server = new Server({ name: 'raw', version: '1' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    const http = createServer((request, response) => void transport.handleRequest(request, response));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const provider = await McpToolProvider.connect({
      server: { transport: 'http', url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` },
    });
    try {
      let heard = 0;
      provider.onToolsChanged(() => void heard++);
      tools = [add, { name: 'add', inputSchema: { type: 'object' as const } }];
      await server.sendToolListChanged();
      await eventually(() => provider.lastRefreshError !== undefined);
      expect(provider.lastRefreshError).toMatchObject({ code: 'duplicate_tool' });
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['add']);
      expect(heard).toBe(0);
      tools = [add, { name: 'sub', inputSchema: { type: 'object' as const } }];
      await server.sendToolListChanged();
      await eventually(() => heard === 1);
      expect(provider.lastRefreshError).toBeUndefined();
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['add', 'sub']);
    } finally {
      await provider.close();
      await transport.close();
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    }
  });
});
