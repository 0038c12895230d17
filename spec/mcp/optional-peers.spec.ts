import { execFileSync } from 'node:child_process';
import { MissingDependencyError } from '../../lib/errors';
import { loadMcpSdk } from '../../lib/mcp/load-mcp-sdk';
import { ROOT } from './mcp-support';

describe('the core entry and the plugins', () => {
  it('loads neither the MCP SDK nor NestJS when the package root is required; the plugins are at their own entries', () => {
    const script = [
      "require('ts-node/register/transpile-only');",
      "require('./lib');",
      "const loadedByRoot = Object.keys(require.cache).filter((file) => /@modelcontextprotocol|@nestjs|rxjs/.test(file));",
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
    expect(() => loadMcpSdk('no-such-module.js', 'McpToolServer')).toThrow('McpToolServer needs the optional package "@modelcontextprotocol/sdk", which is not installed: run `npm install @modelcontextprotocol/sdk`');
  });
});
