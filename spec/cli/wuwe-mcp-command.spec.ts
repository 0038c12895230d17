import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { initializeStatus, spawnHttpServer } from '../mcp/mcp-support';
import { runCli } from './cli-harness';

const ROOT = join(__dirname, '..', '..');
const SERVED_TOOLS = join(ROOT, 'spec', 'mcp', 'fixtures', 'served-tools.ts');

describe('wuwe mcp <module>', () => {
  it('serves the module over stdio like wuwe-mcp (the real SDK client, the CLI as a child process)', async () => {
    const client = new Client({ name: 'spec-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', join(ROOT, 'lib', 'cli', 'wuwe.ts'), 'mcp', SERVED_TOOLS],
        cwd: ROOT,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('add');
      const result = (await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ sum: 3 });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('passes --allowed-host and --allowed-origin to the HTTP endpoint, which refuses any other Host or Origin (403)', async () => {
    const cli = [
      '-r',
      'ts-node/register/transpile-only',
      join(ROOT, 'lib', 'cli', 'wuwe.ts'),
      'mcp',
      SERVED_TOOLS,
      '--http',
      '0',
    ];
    const { url, child } = await spawnHttpServer([
      ...cli,
      '--allowed-host',
      'mcp.test',
      '--allowed-host',
      'mcp2.test',
      '--allowed-origin',
      'https://app.test',
    ]);
    try {
      expect(await initializeStatus(url, `attacker.example:${url.port}`)).toBe(403);
      expect(await initializeStatus(url, url.host, 'https://attacker.example')).toBe(403);
      expect(await initializeStatus(url, 'mcp2.test:80', 'https://app.test')).toBe(200);
    } finally {
      child.kill();
    }
  }, 120_000);

  it('refuses --http on a --host other than loopback without --allowed-host, as a usage error', async () => {
    const open = await runCli(['mcp', SERVED_TOOLS, '--http', '0', '--host', '0.0.0.0'], ROOT);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/--host 0.0.0.0 answers other machines/);
  });

  it('refuses a bad port as a usage error (exit 2) and a module without tools as a failure (exit 1)', async () => {
    const badPort = await runCli(['mcp', SERVED_TOOLS, '--http', 'eighty'], ROOT);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--http needs a port number, got 'eighty'/);
    const noTools = await runCli(['mcp', join(ROOT, 'spec', 'cli', 'fixtures', 'no-tools.ts')], ROOT);
    expect(noTools.code).toBe(1);
    expect(noTools.stderr).toMatch(/exports no @Tool class and no ToolProvider/);
  });
});
