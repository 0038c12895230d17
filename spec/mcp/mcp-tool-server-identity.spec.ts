import 'reflect-metadata';
import * as mcp from '../../lib/mcp';
import { McpHttpHandler, McpToolServer } from '../../lib/mcp';
import { provider } from './fixtures/served-tools';

/** A second copy of `wuwe/mcp`, as when an application and a plugin each install their own wuwe. */
function loadOtherCopy(): typeof mcp {
  let copy: typeof mcp | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<typeof mcp>('../../lib/mcp');
  });
  if (copy === undefined || copy.McpToolServer === McpToolServer) throw new Error('expected a second copy');
  return copy;
}

describe('McpToolServer.isInstance', () => {
  it('recognises a server of another copy of the package, which McpHttpHandler then serves as it is', () => {
    const other = loadOtherCopy();
    const server = new other.McpToolServer(provider);
    expect(McpToolServer.isInstance(server)).toBe(true);
    expect(server instanceof McpToolServer).toBe(false);
    const handler = new McpHttpHandler(server);
    expect(handler.toolServer).toBe(server);
  });

  it('answers false for a tool provider, plain values and a hostile proxy', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    for (const value of [provider, {}, null, undefined, 'McpToolServer', hostile])
      expect(McpToolServer.isInstance(value)).toBe(false);
  });
});
