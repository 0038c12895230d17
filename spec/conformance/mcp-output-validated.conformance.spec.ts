import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolProvider } from '../../lib/mcp';
import { ScriptedModelClient, LlmAgentRunner } from '../../lib';
import type { ToolOutcome } from '../../lib/outcome/tool-outcome';
import { makeTempDir } from '../durable/temp-dir';
import { eventually } from '../mcp/fixtures/changing-tools';
import { ROOT } from '../mcp/mcp-support';
import { cellName, Cell } from './support/matrix';

jest.setTimeout(60_000);
const temp = makeTempDir('conformance-mcp-output');
afterAll(() => temp.cleanup());
const server = join(__dirname, 'support', 'declared-schema-mcp-server.ts');

const INTEGER_TOTAL = {
  type: 'object',
  properties: { total: { type: 'integer' } },
  required: ['total'],
  additionalProperties: false,
};
const STRING_TOTAL = { ...INTEGER_TOTAL, properties: { total: { type: 'string' } } };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

type Path = 'first-listing' | 'text-only' | 'list-changed' | 'cached-catalog' | 'server-restart';

/** What the server declares and answers, in the file it reads on every request. */
function declare(file: string, outputSchema: object, structuredContent: object | null): void {
  writeFileSync(file, JSON.stringify({ outputSchema, structuredContent, text: JSON.stringify(structuredContent) }));
}

/** The declared-schema server started over stdio on `file`, behind a provider. */
function connectDeclared(file: string): Promise<McpToolProvider> {
  return McpToolProvider.connect({
    server: {
      transport: 'stdio',
      command: process.execPath,
      args: ['-r', 'ts-node/register/transpile-only', server, file],
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' },
      stderr: 'ignore',
    },
  });
}

/** A call of `totals` through the runner, as the model asks it (`complete`) or as a host loop does. */
async function callTotals(runner: LlmAgentRunner, entry: Cell['entry']): Promise<ToolOutcome> {
  if (entry === 'invokeToolCall')
    return (await runner.invokeToolCall({ id: 'call_totals', name: 'totals', arguments: {} })).outcome;
  const result = await runner.complete('the totals?');
  expect(result.stopReason).toBe('end_turn');
  return result.toolCalls[0].outcome;
}

const runnerOf = (provider: McpToolProvider) =>
  new LlmAgentRunner(
    new ScriptedModelClient([{ toolCalls: [{ id: 'call_totals', name: 'totals', arguments: {} }] }, { text: 'done' }], {
      whenExhausted: 'repeat',
    }),
    provider,
  );

/**
 * The server declares `{ total: integer }`; on `path`, the output the model could get violates what the server
 * declares at the time of the call: at the first listing; a text-only answer of a tool that declares an output
 * schema; after `list_changed` changed the declaration to `{ total: string }` (a runner built after it, and one
 * built before it, from the earlier catalog); after the server was restarted declaring `{ total: string }`.
 */
async function outcomeOn(path: Path, entry: Cell['entry']): Promise<ToolOutcome> {
  const file = join(makeTempDir(`mcp-${path}`).path, 'declared.json');
  declare(
    file,
    INTEGER_TOTAL,
    path === 'first-listing' ? { total: 'lots' } : path === 'text-only' ? null : { total: 5 },
  );
  const provider = await connectDeclared(file);
  try {
    const before = runnerOf(provider);
    if (path === 'first-listing' || path === 'text-only') return await callTotals(before, entry);
    // The answer was valid under the first declaration.
    expect(await callTotals(before, entry)).toMatchObject({ ok: true, data: { total: 5 } });
    declare(file, STRING_TOTAL, { total: 5 });
    if (path === 'server-restart') {
      const pid = provider.pid!;
      process.kill(pid, 'SIGKILL');
      await eventually(() => !isAlive(pid));
      await new Promise((resolve) => setTimeout(resolve, 100)); // the provider sees its session end
      return await callTotals(before, entry);
    }
    process.kill(provider.pid!, 'SIGHUP');
    await eventually(() => JSON.stringify(provider.listTools()[0].outputSchema).includes('string'));
    return await callTotals(path === 'cached-catalog' ? before : runnerOf(provider), entry);
  } finally {
    await provider.close();
  }
}

const rows: [string, Cell, Path][] = (['complete', 'invokeToolCall'] as const).flatMap((entry) =>
  (['first-listing', 'text-only', 'list-changed', 'cached-catalog', 'server-restart'] as const).map(
    (path): [string, Cell, Path] => {
      const cell: Cell = { store: 'none', entry, client: 'scripted' };
      return [cellName(cell, path), cell, path];
    },
  ),
);

describe("a consumed MCP tool's output is validated against its declared schema on every path", () => {
  describe('mastra #22556: MCP tools rebuilt from a cached catalog are never validated', () => {
    it.concurrent.each(rows)('%s', async (_name, cell, path) => {
      const outcome = await outcomeOn(path, cell.entry);
      expect(outcome.ok).toBe(false);
      expect(outcome.data).toBeUndefined();
      expect(outcome.error?.code).toBe('output_validation');
    });
  });
});

/** How many calls the declared-schema server has served. */
function callsServed(file: string): number {
  return existsSync(`${file}.calls`) ? readFileSync(`${file}.calls`, 'utf8').split('\n').filter(Boolean).length : 0;
}

type Change = 'list-changed' | 'server-restart';

/**
 * The server declares `totals` read-only, then (after `list_changed`, or restarted) destructive: a runner built
 * from the earlier listing must not send the call under its read-only rules, and a runner built after the change
 * asks for approval (none here: denied). In both, the server never sees the call.
 */
async function turnedDestructive(change: Change, entry: Cell['entry']) {
  const file = join(makeTempDir(`mcp-destructive-${change}`).path, 'declared.json');
  declare(file, INTEGER_TOTAL, { total: 5 });
  const provider = await connectDeclared(file);
  try {
    const before = runnerOf(provider);
    expect(await callTotals(before, entry)).toMatchObject({ ok: true, data: { total: 5 } });
    expect(callsServed(file)).toBe(1);
    writeFileSync(
      file,
      JSON.stringify({
        outputSchema: INTEGER_TOTAL,
        structuredContent: { total: 5 },
        text: '{"total":5}',
        annotations: { readOnlyHint: false, destructiveHint: true },
      }),
    );
    if (change === 'server-restart') {
      const pid = provider.pid!;
      process.kill(pid, 'SIGKILL');
      await eventually(() => !isAlive(pid));
      await new Promise((resolve) => setTimeout(resolve, 100));
    } else {
      process.kill(provider.pid!, 'SIGHUP');
      await eventually(() => provider.listTools()[0].sideEffect === 'destructive');
    }
    const stale = await callTotals(before, entry);
    const fresh = await callTotals(runnerOf(provider), entry);
    return { stale, fresh, served: callsServed(file) };
  } finally {
    await provider.close();
  }
}

const changeRows: [string, Cell, Change][] = (['complete', 'invokeToolCall'] as const).flatMap((entry) =>
  (['list-changed', 'server-restart'] as const).map((change): [string, Cell, Change] => {
    const cell: Cell = { store: 'none', entry, client: 'scripted' };
    return [cellName(cell, `turned-destructive-${change}`), cell, change];
  }),
);

describe('a consumed MCP tool that turns destructive never runs under the rules it had before', () => {
  describe('mastra #22556: MCP tools rebuilt from a cached catalog keep their old contract', () => {
    it.concurrent.each(changeRows)('%s', async (_name, cell, change) => {
      const { stale, fresh, served } = await turnedDestructive(change, cell.entry);
      expect(stale.ok).toBe(false);
      expect(stale.error?.code).toBe('tool_changed');
      expect(fresh.ok).toBe(false);
      expect(fresh.error?.code).toBe('approval_denied');
      expect(served).toBe(1);
    });
  });
});
