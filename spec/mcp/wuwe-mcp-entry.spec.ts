import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler, McpSetupError, parseWuweMcpArguments, toolProviderOfModule } from '../../lib/mcp';
import {
  connectHttp,
  initializeStatus,
  listenHttp,
  ROOT,
  SERVED_TOOLS,
  sdkClient,
  spawnHttpServer,
  WUWE_MCP,
} from './mcp-support';
import { Echo, provider } from './fixtures/served-tools';

describe('parseWuweMcpArguments', () => {
  it('reads a module and an optional HTTP port and host', () => {
    expect(parseWuweMcpArguments(['./tools.ts'])).toEqual({
      modulePath: './tools.ts',
      httpPort: undefined,
      host: '127.0.0.1',
      allowedHosts: [],
      allowedOrigins: [],
    });
    expect(
      parseWuweMcpArguments([
        '--http',
        '8080',
        './tools.js',
        '--host',
        '0.0.0.0',
        '--allowed-host',
        'a.example',
        '--allowed-host',
        'b.example',
        '--allowed-origin',
        'https://app.example',
      ]),
    ).toEqual({
      modulePath: './tools.js',
      httpPort: 8080,
      host: '0.0.0.0',
      allowedHosts: ['a.example', 'b.example'],
      allowedOrigins: ['https://app.example'],
    });
  });

  it.each([['0.0.0.0'], ['::'], ['192.168.1.5'], ['mcp.example.com']])(
    'refuses --http on --host %s (not loopback) without an --allowed-host',
    (host) => {
      expect(() => parseWuweMcpArguments(['a.ts', '--http', '0', '--host', host])).toThrow(
        /answers other machines: name the host names clients use with --allowed-host/,
      );
    },
  );

  it.each([['127.0.0.1'], ['127.0.0.2'], ['localhost'], ['::1'], ['[::1]']])(
    'serves --http on the loopback --host %s with the loopback default',
    (host) => {
      expect(parseWuweMcpArguments(['a.ts', '--http', '0', '--host', host]).allowedHosts).toEqual([]);
    },
  );

  it.each([[[]], [['a.ts', 'b.ts']], [['--http', 'eighty', 'a.ts']], [['--http']], [['--verbose', 'a.ts']]])(
    'refuses %j with the usage',
    (argv) => {
      expect(() => parseWuweMcpArguments(argv)).toThrow(McpSetupError);
      expect(() => parseWuweMcpArguments(argv)).toThrow(/usage: wuwe-mcp <module>/);
    },
  );
});

describe('toolProviderOfModule', () => {
  it('serves the exported providers and @Tool classes, and refuses a module without tools', () => {
    const served = toolProviderOfModule({ provider, Echo, aborted: [] });
    expect(served.listTools().map((tool) => tool.name)).toContain('Echo');
    expect(served.listTools().map((tool) => tool.name)).toContain('add');
    expect(() => toolProviderOfModule({ value: 1 }, 'empty.js')).toThrow(
      /empty.js exports no @Tool class and no ToolProvider/,
    );
  });
});

describe('host policy on the server side', () => {
  it('refuses what allowToolCall refuses, as an isError result', async () => {
    const http = await listenHttp(
      new McpHttpHandler(provider, {
        callOptions: {
          allowToolCall: (request) => ({ allowed: request.toolName !== 'add', reason: 'adding is closed today' }),
        },
      }),
    );
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
  it('refuses a foreign Host or Origin (403) and answers the --allowed-host and --allowed-origin given', async () => {
    const { url, child } = await spawnHttpServer([
      ...WUWE_MCP,
      SERVED_TOOLS,
      '--http',
      '0',
      '--allowed-host',
      'mcp.test',
      '--allowed-origin',
      'https://app.test',
    ]);
    try {
      expect(await initializeStatus(url, `attacker.example:${url.port}`)).toBe(403);
      expect(await initializeStatus(url, url.host, 'http://attacker.example')).toBe(403);
      expect(await initializeStatus(url, url.host)).toBe(200);
      expect(await initializeStatus(url, 'mcp.test', 'https://app.test')).toBe(200);
    } finally {
      child.kill();
    }
  }, 120000);

  it('serves the module over Streamable HTTP on the port it prints', async () => {
    const child = spawn(process.execPath, [...WUWE_MCP, SERVED_TOOLS, '--http', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
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
