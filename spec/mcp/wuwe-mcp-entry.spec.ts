import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler, McpSetupError, parseWuweMcpArguments, toolProviderOfModule } from '../../lib/mcp';
import { connectHttp, listenHttp, ROOT, SERVED_TOOLS, sdkClient, WUWE_MCP } from './mcp-support';
import { Echo, provider } from './fixtures/served-tools';

describe('parseWuweMcpArguments', () => {
  it('reads a module and an optional HTTP port and host', () => {
    expect(parseWuweMcpArguments(['./tools.ts'])).toEqual({ modulePath: './tools.ts', httpPort: undefined, host: '127.0.0.1' });
    expect(parseWuweMcpArguments(['--http', '8080', './tools.js', '--host', '0.0.0.0'])).toEqual({ modulePath: './tools.js', httpPort: 8080, host: '0.0.0.0' });
  });

  it.each([[[]], [['a.ts', 'b.ts']], [['--http', 'eighty', 'a.ts']], [['--http']], [['--verbose', 'a.ts']]])('refuses %j with the usage', (argv) => {
    expect(() => parseWuweMcpArguments(argv)).toThrow(McpSetupError);
    expect(() => parseWuweMcpArguments(argv)).toThrow(/usage: wuwe-mcp <module>/);
  });
});

describe('toolProviderOfModule', () => {
  it('serves the exported providers and @Tool classes, and refuses a module without tools', () => {
    const served = toolProviderOfModule({ provider, Echo, aborted: [] });
    expect(served.listTools().map((tool) => tool.name)).toContain('Echo');
    expect(served.listTools().map((tool) => tool.name)).toContain('add');
    expect(() => toolProviderOfModule({ value: 1 }, 'empty.js')).toThrow(/empty.js exports no @Tool class and no ToolProvider/);
  });
});

describe('host policy on the server side', () => {
  it('refuses what allowToolCall refuses, as an isError result', async () => {
    const http = await listenHttp(new McpHttpHandler(provider, { callOptions: { allowToolCall: (request) => ({ allowed: request.toolName !== 'add', reason: 'adding is closed today' }) } }));
    const client = await connectHttp(sdkClient(), http.url);
    try {
      const refused = (await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('adding is closed today');
      expect(((await client.callTool({ name: 'lookup', arguments: {} })) as CallToolResult).isError).toBe(true);
    } finally {
      await client.close();
      await http.close();
    }
  });
});

describe('wuwe-mcp --http', () => {
  it('serves the module over Streamable HTTP on the port it prints', async () => {
    const child = spawn(process.execPath, [...WUWE_MCP, SERVED_TOOLS, '--http', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let client: Client | undefined;
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /serving .* on (http:\/\/\S+)/.exec(text);
          if (match !== null) resolve(new URL(match[1]));
        });
        child.on('exit', (code) => reject(new Error(`wuwe-mcp exited with ${String(code)}: ${text}`)));
      });
      client = await connectHttp(sdkClient(), url);
      const result = (await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ sum: 3 });
    } finally {
      await client?.close();
      child.kill();
    }
  }, 120000);
});
