import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpSetupError, McpToolProvider } from '../../lib/mcp';
import { LlmAgentRunner } from '../../lib';
import { workerBundle } from '../queue/worker-processes';
import { ROOT } from './mcp-support';

/**
 * The scripted server bundled into one JavaScript file: it starts in a fraction of a second, where ts-node could take
 * longer than the timeouts under test on a loaded machine (the server was killed before it wrote its pid, or before
 * it answered initialize).
 */
const SCRIPTED = workerBundle('../mcp/fixtures/scripted-mcp-server.ts');
/** The timeout under test: well above a bundled server's start, well below the 60 s default. */
const TIMEOUT_MS = 1_500;
const NO_MODEL = { modelName: 'none', step: () => Promise.reject(new Error('no model in these tests')) };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describe('McpToolProvider.connect honours connectTimeoutMs', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'wuwe-mcp-timeout-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('gives up on a stdio server that never answers initialize after the timeout, as server_unreachable, and stops the child', async () => {
    const pidFile = join(folder, 'pid');
    const started = Date.now();
    const failure = await McpToolProvider.connect({
      server: {
        transport: 'stdio',
        command: process.execPath,
        args: [SCRIPTED, 'silent'],
        env: { PID_FILE: pidFile },
        stderr: 'ignore',
        cwd: ROOT,
      },
      connectTimeoutMs: TIMEOUT_MS,
    }).catch((error: unknown) => error);
    const elapsedMs = Date.now() - started;
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('server_unreachable');
    expect((failure as Error).message).toMatch(/did not answer within 1500 ms/);
    expect(elapsedMs).toBeLessThan(8_000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !alive(pid), 8_000)).toBe(true);
  }, 30_000);

  it.each([[0], [-1], [1.5], [Number.NaN]])(
    'refuses connectTimeoutMs %p as invalid_server_options, before starting anything',
    async (connectTimeoutMs) => {
      const pidFile = join(folder, 'pid');
      const failure = await McpToolProvider.connect({
        server: {
          transport: 'stdio',
          command: process.execPath,
          args: [SCRIPTED, 'silent'],
          env: { PID_FILE: pidFile },
          stderr: 'ignore',
          cwd: ROOT,
        },
        connectTimeoutMs,
      }).catch((error: unknown) => error);
      expect(McpSetupError.isInstance(failure) && failure.code).toBe('invalid_server_options');
      expect(() => readFileSync(pidFile)).toThrow();
    },
  );

  it('gives up on an HTTP server that never answers after the timeout, as server_unreachable, and drops the request', async () => {
    const pending: IncomingMessage[] = [];
    const server = createServer((request) => void pending.push(request));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const started = Date.now();
      const failure = await McpToolProvider.connect({
        server: { transport: 'http', url: `http://127.0.0.1:${port}/mcp` },
        connectTimeoutMs: 400,
      }).catch((error: unknown) => error);
      expect(McpSetupError.isInstance(failure) && failure.code).toBe('server_unreachable');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(pending.length).toBeGreaterThan(0);
      // The client aborted the request it had sent.
      expect(await waitUntil(() => pending.every((request) => request.destroyed), 5_000)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  }, 30_000);

  it('gives up on a server that answers initialize but never the tool list, within the same timeout', async () => {
    const started = Date.now();
    const failure = await McpToolProvider.connect({
      server: {
        transport: 'stdio',
        command: process.execPath,
        args: [SCRIPTED, 'no-list'],
        stderr: 'ignore',
        cwd: ROOT,
      },
      connectTimeoutMs: TIMEOUT_MS,
    }).catch((error: unknown) => error);
    expect(McpSetupError.isInstance(failure) && failure.code).toBe('tool_list_unreadable');
    expect((failure as Error).message).toMatch(/did not answer within 1500 ms/);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 30_000);

  it('gives up on a restart that never answers after the timeout: the call gets unavailable, not a 60 s wait', async () => {
    const toolsFile = join(folder, 'tools.json');
    writeFileSync(
      toolsFile,
      JSON.stringify({
        tools: [{ name: 'crash', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      }),
    );
    const provider = await McpToolProvider.connect({
      server: {
        transport: 'stdio',
        command: process.execPath,
        args: [SCRIPTED, 'once', toolsFile, join(folder, 'started')],
        stderr: 'ignore',
        cwd: ROOT,
      },
      // Long enough for the first start; the restart never answers.
      connectTimeoutMs: 3_000,
      timeoutMs: 10_000,
    });
    try {
      const runner = new LlmAgentRunner(NO_MODEL, provider);
      const crashed = await runner.invokeToolCall({ id: 'c1', name: 'crash', arguments: {} });
      expect(crashed.outcome.error).toMatchObject({ code: 'unavailable' });
      const started = Date.now();
      const restarted = await runner.invokeToolCall({ id: 'c2', name: 'crash', arguments: {} });
      expect(restarted.outcome.error).toMatchObject({ code: 'unavailable' });
      expect(restarted.outcome.error?.message).toMatch(/could not be started again: .*did not answer within 3000 ms/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await provider.close();
    }
  }, 30_000);
});
