import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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

  it('refuses a bad port as a usage error (exit 2) and a module without tools as a failure (exit 1)', async () => {
    const badPort = await runCli(['mcp', SERVED_TOOLS, '--http', 'eighty'], ROOT);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--http needs a port number, got 'eighty'/);
    const noTools = await runCli(['mcp', join(ROOT, 'spec', 'cli', 'fixtures', 'no-tools.ts')], ROOT);
    expect(noTools.code).toBe(1);
    expect(noTools.stderr).toMatch(/exports no @Tool class and no ToolProvider/);
  });
});
