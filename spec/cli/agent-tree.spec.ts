import { join } from 'node:path';
import { childRunsOf } from '../../lib/agents';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { agentTree, approveAll } from '../agents/agent-tree';
import { makeTempDir } from '../durable/temp-dir';
import { formatProgress } from '../../lib/cli/format-event';
import { runCli } from './cli-harness';

jest.setTimeout(60_000);

/**
 * A three-level tree in a real SQLite file, run with real runners until the grandchild waits: the root waits on its
 * `delegate` call (suspended on the child), the child on `cleanup` (suspended on the grandchild), the grandchild on
 * its own approval of `delete_file`.
 */
describe('wuwe and agent trees', () => {
  const dir = makeTempDir('cli-tree');
  const dbPath = join(dir.path, 'runs.db');
  const store = `sqlite:${dbPath}`;
  let child: string;
  let grandchild: string;

  beforeAll(async () => {
    const db = new SqliteRunStore(dbPath);
    try {
      const root = agentTree(dir.path, { store: db });
      await root.complete('go', { runId: 'tree' });
      await approveAll(db, ['tree']);
      await root.resume('tree');
      child = (await childRunsOf(db, 'tree'))[0].runId;
      await approveAll(db, [child]);
      const result = await root.resume('tree');
      expect(result.stopReason).toBe('awaiting_approval');
      grandchild = (await childRunsOf(db, child))[0].runId;
    } finally {
      await db.close();
    }
  });
  afterAll(() => dir.cleanup());

  it('runs show: the child runs under the calls that started them, recursively, and the approval waiting below', async () => {
    const text = await runCli(['runs', 'show', 'tree', '--store', store], dir.path);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const childLine = lines.findIndex((line) => line.startsWith('  turn 1 call_delegate delegate -> run '));
    expect(lines[childLine]).toBe(`  turn 1 call_delegate delegate -> run ${child}: awaiting_approval, 1 step(s)`);
    expect(lines[childLine + 1]).toBe(
      `    turn 1 call_cleanup cleanup -> run ${grandchild}: awaiting_approval, 1 step(s), 1 pending approval(s)`,
    );
    expect(lines[childLine - 1]).toBe('child runs (2):');
    expect(text.stdout).toContain('approvals waiting in the tree (1):');
    expect(text.stdout).toMatch(
      new RegExp(`tree > delegate > cleanup\\s+${escape(grandchild)}\\s+1\\s+call_delete_file\\s+delete_file`),
    );

    const json = JSON.parse((await runCli(['runs', 'show', 'tree', '--store', store, '--json'], dir.path)).stdout);
    expect(json.status).toBe('awaiting_approval');
    expect(json.childRuns).toEqual([
      {
        runId: child,
        agent: 'delegate',
        parentCallId: 'call_delegate',
        parentTurn: 1,
        status: 'awaiting_approval',
        steps: 1,
        pendingApprovals: 0,
        children: [
          {
            runId: grandchild,
            agent: 'cleanup',
            parentCallId: 'call_cleanup',
            parentTurn: 1,
            status: 'awaiting_approval',
            steps: 1,
            pendingApprovals: 1,
            children: [],
          },
        ],
      },
    ]);
    expect(json.treeApprovals).toEqual([
      expect.objectContaining({
        runId: grandchild,
        callId: 'call_delete_file',
        toolName: 'delete_file',
        state: 'pending',
        path: ['tree', child, grandchild],
        agents: ['delegate', 'cleanup'],
      }),
    ]);

    // The child's own view starts its tree at the child.
    const fromChild = JSON.parse((await runCli(['runs', 'show', child, '--store', store, '--json'], dir.path)).stdout);
    expect(fromChild.childRuns.map((run: { runId: string }) => run.runId)).toEqual([grandchild]);
    expect(fromChild.treeApprovals[0].path).toEqual([child, grandchild]);
  });

  it('approvals list --run <root> lists the pending approvals of the whole tree with the path root -> child', async () => {
    const listed = JSON.parse(
      (await runCli(['approvals', 'list', '--run', 'tree', '--store', store, '--json'], dir.path)).stdout,
    );
    expect(listed).toEqual([
      expect.objectContaining({
        runId: grandchild,
        callId: 'call_delete_file',
        state: 'pending',
        path: ['tree', child, grandchild],
        agents: ['delegate', 'cleanup'],
      }),
    ]);
    const all = JSON.parse(
      (await runCli(['approvals', 'list', '--run', 'tree', '--all', '--store', store, '--json'], dir.path)).stdout,
    );
    // Decided approvals of every level: the root's of delegate (no path), the child's of cleanup, the grandchild's.
    expect(
      all.map((approval: { toolName: string; path?: string[] }) => [approval.toolName, approval.path?.length]),
    ).toEqual([
      ['delegate', undefined],
      ['cleanup', 2],
      ['delete_file', 3],
    ]);
    const text = await runCli(['approvals', 'list', '--store', store], dir.path);
    expect(text.stdout.split('\n')[0]).toMatch(
      /^RUN\s+TURN\s+CALL\s+TOOL\s+STATE\s+ARGUMENTS SHA-256\s+ARGUMENTS\s+PATH$/,
    );
    expect(text.stdout).toMatch(/delete_file\s+pending.*tree > delegate > cleanup$/m);
  });

  it('the HTML export nests each child run inside the call that started it', async () => {
    const html = (await runCli(['export', 'tree', '--html', '-', '--store', store], dir.path)).stdout;
    const delegateCall = html.indexOf('data-call="call_delegate"');
    const childRun = html.indexOf(`<div class="child-run" data-run="${child}"`);
    const cleanupCall = html.indexOf('data-call="call_cleanup"');
    const grandchildRun = html.indexOf(`<div class="child-run" data-run="${grandchild}"`);
    const leafCall = html.indexOf('data-call="call_delete_file"');
    expect([delegateCall, childRun, cleanupCall, grandchildRun, leafCall].every((at) => at > 0)).toBe(true);
    expect(delegateCall).toBeLessThan(childRun);
    expect(childRun).toBeLessThan(cleanupCall);
    expect(cleanupCall).toBeLessThan(grandchildRun);
    expect(grandchildRun).toBeLessThan(leafCall);
    expect(html).toContain('waits for approval of delete_file');
    // Nesting, not order alone: the grandchild's run closes before the child's, which closes inside the delegate call.
    expect(depthAt(html, leafCall)).toBeGreaterThan(depthAt(html, cleanupCall));
    expect(depthAt(html, cleanupCall)).toBeGreaterThan(depthAt(html, delegateCall));
  });

  it('finishes the tree from the command line: approve the grandchild, resume the root, see every run completed', async () => {
    const approved = await runCli(['approvals', 'approve', grandchild, 'call_delete_file', '--store', store], dir.path);
    expect(approved.code).toBe(0);
    const db = new SqliteRunStore(dbPath);
    try {
      expect((await agentTree(dir.path, { store: db }).resume('tree')).stopReason).toBe('end_turn');
    } finally {
      await db.close();
    }
    const json = JSON.parse((await runCli(['runs', 'show', 'tree', '--store', store, '--json'], dir.path)).stdout);
    expect(json.childRuns[0]).toMatchObject({ status: 'completed', children: [{ status: 'completed' }] });
    expect(json.treeApprovals).toEqual([]);
  });
});

describe('wuwe and agent trees: escaping', () => {
  const dir = makeTempDir('cli-tree-escape');
  afterAll(() => dir.cleanup());

  it('a hostile call id (and so child run id) is escaped in the tree text, the approvals table and the HTML', async () => {
    const dbPath = join(dir.path, 'runs.db');
    const db = new SqliteRunStore(dbPath);
    const hostile = 'call_\u001b]0;pwned\u0007\u202e';
    try {
      const { LlmAgentRunner, ScriptedModelClient } = await import('../../lib');
      const child = agentTree(dir.path);
      const root = new LlmAgentRunner(
        new ScriptedModelClient([{ toolCalls: [{ id: hostile, name: 'delegate', arguments: { prompt: 'x' } }] }], {
          whenExhausted: 'end_turn',
        }),
        child.asTool({ name: 'delegate', description: 'd' }),
        { store: db, approvalHandler: () => ({ approved: true }) },
      );
      expect((await root.complete('go', { runId: 'hostile' })).stopReason).toBe('end_turn');
      expect((await childRunsOf(db, 'hostile'))[0].runId).toContain(hostile);
    } finally {
      await db.close();
    }
    const store = `sqlite:${dbPath}`;
    for (const argv of [
      ['runs', 'show', 'hostile'],
      ['approvals', 'list', '--run', 'hostile'],
      ['export', 'hostile', '--html', '-'],
    ]) {
      const out = await runCli([...argv, '--store', store], dir.path);
      for (const raw of ['\u0007', '\u001b', '\u202e']) expect(out.stdout).not.toContain(raw);
    }
    const shown = await runCli(['runs', 'show', 'hostile', '--store', store], dir.path);
    expect(shown.stdout).toContain('\\x1b]0;pwned\\x07\\u202e');
  });
});

describe('progress lines of child runs (wuwe resume)', () => {
  it('a child run event is a progress line behind its agent path', () => {
    const line = formatProgress({
      type: 'agent_event',
      runId: 'tree',
      agent: ['delegate', 'cleanup'],
      calls: [],
      event: {
        type: 'tool_call_started',
        runId: 'tree/x',
        turn: 1,
        callId: 'c1',
        toolName: 'delete_file',
        arguments: {},
      },
    });
    expect(line).toBe('[delegate > cleanup] [tool] delete_file c1 started');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** How many `<div` are open at `index` of `html`. */
function depthAt(html: string, index: number): number {
  const before = html.slice(0, index);
  return (before.match(/<div\b/g) ?? []).length - (before.match(/<\/div>/g) ?? []).length;
}
