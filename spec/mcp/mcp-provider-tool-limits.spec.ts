import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MCP_TOOL_LIST_LIMITS, McpSetupError, McpToolProvider, McpToolProviderOptions } from '../../lib/mcp';
import { LlmAgentRunner } from '../../lib';
import { ROOT } from './mcp-support';

const SCRIPTED = join(__dirname, 'fixtures', 'scripted-mcp-server.ts');
const NO_MODEL = { modelName: 'none', step: () => Promise.reject(new Error('no model in these tests')) };

/** One good tool among tools a host cannot offer. */
const MIXED_TOOLS = [
  { name: 'good', description: 'A fine tool.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'bad name!', inputSchema: { type: 'object' } },
  { name: 'flood', description: 'x'.repeat(2 * 1024 * 1024), inputSchema: { type: 'object' } },
  {
    name: 'wide',
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 1500 }, (_, i) => [`field_${i}`, { type: 'string', description: 'padding' }]),
      ),
    },
  },
  { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } },
];

describe('McpToolProvider bounds what a consumed server lists', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'wuwe-mcp-limits-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function scripted(
    mode: string,
    tools: object[] = [],
    extra: Partial<McpToolProviderOptions> = {},
  ): Promise<McpToolProvider> {
    const toolsFile = join(folder, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify({ tools }));
    return McpToolProvider.connect({
      server: {
        transport: 'stdio',
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', SCRIPTED, mode, toolsFile],
        cwd: ROOT,
        stderr: 'ignore',
      },
      connectTimeoutMs: 20_000,
      ...extra,
    });
  }

  it('offers the good tools and reports each refused one with its code (stdio)', async () => {
    const provider = await scripted('serve', MIXED_TOOLS);
    try {
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['good']);
      expect(provider.refusedTools.map(({ name, code }) => ({ name, code }))).toEqual([
        { name: 'bad name!', code: 'invalid_tool' },
        { name: 'flood', code: 'description_too_long' },
        { name: 'wide', code: 'schema_too_large' },
        { name: 'broken', code: 'invalid_schema' },
      ]);
      expect(provider.refusedTools[1].message).toContain(
        `more than ${DEFAULT_MCP_TOOL_LIST_LIMITS.maxDescriptionLength} (limits.maxDescriptionLength)`,
      );
      const result = await new LlmAgentRunner(NO_MODEL, provider).invokeToolCall({
        id: 'c1',
        name: 'good',
        arguments: {},
      });
      expect(result.outcome.ok).toBe(true);
    } finally {
      await provider.close();
    }
  }, 60_000);

  it('refuses the same tools over HTTP, where the transport reads any size', async () => {
    // A bare Streamable HTTP server: JSON answers to POSTs, no event stream, no SDK.
    const server = createServer((request, response) => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string; params: { protocolVersion?: string } };
        if (message.id === undefined) return void response.writeHead(202).end();
        const result =
          message.method === 'initialize'
            ? {
                protocolVersion: message.params.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'raw-http', version: '1' },
              }
            : { tools: MIXED_TOOLS };
        response
          .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'one' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const provider = await McpToolProvider.connect({
      server: { transport: 'http', url: `http://127.0.0.1:${port}/mcp` },
    });
    try {
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['good']);
      expect(provider.refusedTools.map((tool) => tool.code)).toEqual([
        'invalid_tool',
        'description_too_long',
        'schema_too_large',
        'invalid_schema',
      ]);
    } finally {
      await provider.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  }, 60_000);

  it('takes larger limits when the host gives them', async () => {
    const provider = await scripted('serve', MIXED_TOOLS.slice(0, 4), {
      limits: { maxDescriptionLength: 3 * 1024 * 1024, maxSchemaBytes: 1024 * 1024 },
    });
    try {
      expect(provider.listTools().map((tool) => tool.name)).toEqual(['good', 'flood', 'wide']);
    } finally {
      await provider.close();
    }
  }, 60_000);

  it('reports a listing over the transport limit as McpSetupError tool_list_unreadable, naming the limit', async () => {
    const failure = await scripted(
      'serve',
      [{ name: 'big', description: 'y'.repeat(200_000), inputSchema: { type: 'object' } }],
      { limits: { maxMessageBytes: 100_000 } },
    ).catch((error: unknown) => error);
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('tool_list_unreadable');
    expect((failure as Error).message).toMatch(/exceeded maximum size of 100000 bytes/);
  }, 60_000);

  it('reports a listing over the default transport limit (10 MiB) as tool_list_unreadable', async () => {
    const failure = await scripted('serve', [
      { name: 'huge', description: 'z'.repeat(11 * 1024 * 1024), inputSchema: { type: 'object' } },
    ]).catch((error: unknown) => error);
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('tool_list_unreadable');
  }, 60_000);

  it('stops reading a listing whose pages never end at maxTools: tool_list_too_large', async () => {
    const failure = await scripted('endless', [], { limits: { maxTools: 50 } }).catch((error: unknown) => error);
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('tool_list_too_large');
    expect((failure as Error).message).toMatch(/more than 50 tools/);
  }, 60_000);

  it.each([
    [{ maxTools: 0 }],
    [{ maxDescriptionLength: -1 }],
    [{ maxSchemaBytes: 1.5 }],
    [{ maxMessageBytes: Number.POSITIVE_INFINITY }],
  ])('refuses limits %j as invalid_server_options', async (limits) => {
    const failure = await McpToolProvider.connect({
      server: { transport: 'http', url: 'http://127.0.0.1:9/mcp' },
      limits,
    }).catch((error: unknown) => error);
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('invalid_server_options');
  });

  it('publishes frozen defaults', () => {
    expect(Object.isFrozen(DEFAULT_MCP_TOOL_LIST_LIMITS)).toBe(true);
    expect(DEFAULT_MCP_TOOL_LIST_LIMITS).toEqual({
      maxTools: 1000,
      maxDescriptionLength: 8192,
      maxSchemaBytes: 65_536,
      maxMessageBytes: 10 * 1024 * 1024,
    });
  });
});
