import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { MissingDependencyError } from '../../lib';
import { loadMcpSdk } from '../../lib/mcp/load-mcp-sdk';
import { ROOT } from './mcp-support';

describe('the core entry and the plugins', () => {
  it('loads neither the MCP SDK nor NestJS when the package root is required; the plugins are at their own entries', () => {
    const script = [
      "require('ts-node/register/transpile-only');",
      "require('./lib');",
      'const loadedByRoot = Object.keys(require.cache).filter((file) => /@modelcontextprotocol|@nestjs|rxjs/.test(file));',
      "const mcp = require('./lib/mcp'); const nest = require('./lib/nest');",
      "const names = ['McpToolServer', 'McpToolProvider', 'McpHttpHandler', 'serveToolsOverStdio'].filter((name) => typeof mcp[name] === 'undefined').concat(typeof nest.WuweModule === 'undefined' ? ['WuweModule'] : []);",
      'process.stdout.write(JSON.stringify({ names, loaded: loadedByRoot }));',
    ].join('\n');
    const output = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ names: [], loaded: [] });
  }, 120000);
});

describe('loadMcpSdk', () => {
  it('names the package to install when a module of the SDK cannot be loaded', () => {
    expect(() => loadMcpSdk('no-such-module.js', 'McpToolServer')).toThrow(MissingDependencyError);
    expect(() => loadMcpSdk('no-such-module.js', 'McpToolServer')).toThrow(
      'McpToolServer needs the optional package "@modelcontextprotocol/sdk", which is not installed: run `npm install @modelcontextprotocol/sdk`',
    );
  });
});

describe('without the MCP SDK installed', () => {
  it('every MCP entry point throws MissingDependencyError missing_dependency naming the package (never server_unreachable)', () => {
    // A child process whose module resolution cannot find the SDK: the real loading path of each class.
    const script = [
      "require('ts-node/register/transpile-only'); require('reflect-metadata');",
      "const mcp = require('./lib/mcp'); const { ToolRegistry } = require('./lib');",
      'const describeError = (error) => ({ name: error.name, code: error.code, packageName: error.packageName, feature: error.feature });',
      'const attempt = async (body) => { try { await body(); return "no error"; } catch (error) { return describeError(error); } };',
      '(async () => {',
      "  const stdio = { transport: 'stdio', command: process.execPath, args: ['-e', ''] };",
      "  const http = { transport: 'http', url: 'http://127.0.0.1:9/mcp' };",
      '  const registry = new ToolRegistry([]);',
      '  const results = {',
      '    providerStdio: await attempt(() => mcp.McpToolProvider.connect({ server: stdio })),',
      '    providerHttp: await attempt(() => mcp.McpToolProvider.connect({ server: http })),',
      '    server: await attempt(() => new mcp.McpToolServer(registry).createServer()),',
      '    httpHandler: await attempt(() => new mcp.McpHttpHandler(registry)),',
      '    stdioServing: await attempt(() => mcp.serveToolsOverStdio(registry)),',
      '  };',
      '  process.stdout.write(JSON.stringify(results));',
      '})();',
    ].join('\n');
    const output = execFileSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', join(__dirname, 'fixtures', 'hide-mcp-sdk.ts'), '-e', script],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const results = JSON.parse(output) as Record<string, unknown>;
    const expected = (feature: string) => ({
      name: 'MissingDependencyError',
      code: 'missing_dependency',
      packageName: '@modelcontextprotocol/sdk',
      feature,
    });
    expect(results).toEqual({
      providerStdio: expected('McpToolProvider'),
      providerHttp: expected('McpToolProvider'),
      server: expected('McpToolServer'),
      httpHandler: expected('McpHttpHandler'),
      stdioServing: expected('serveToolsOverStdio'),
    });
  }, 120000);
});
