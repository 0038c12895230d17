import { join } from 'node:path';
import { LlmAgentRunner, RunStore, ToolCallResult } from '../../lib';
import { childRunsOf, PARENT_CALL_ID, PARENT_RUN_ID } from '../../lib/agents';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';
import { agentTree, approveAll, countingTools, countOf, scriptedAgent } from './agent-tree';

jest.setTimeout(60_000);
const temps: { cleanup: () => void }[] = [];
const schemas = new TestSchemas();
afterAll(async () => {
  temps.forEach((temp) => temp.cleanup());
  await schemas.dropAll();
});

function tempDir(): string {
  const temp = makeTempDir('agents');
  temps.push(temp);
  return temp.path;
}

const count = countOf;

function delegateCall(result: { toolCalls: readonly ToolCallResult[] }): ToolCallResult {
  return result.toolCalls.find((call) => call.toolName === 'delegate')!;
}

const stores: [string, (dir: string) => Promise<RunStore>][] = [
  ['SQLite', async (dir) => new SqliteRunStore(join(dir, 'runs.db'))],
  [
    'PostgreSQL',
    async () => await PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh() }),
  ],
];

describe.each(stores)('agents as tools on %s', (_name, openStore) => {
  it('a three-level tree: each pending approval suspends every run above it; deciding it and resuming the root resumes each level, and every side effect runs once', async () => {
    const dir = tempDir();
    const store = await openStore(dir);
    try {
      const root = agentTree(dir, { store });
      // Round 1: the root's own gate on `delegate` (derived destructive) waits; `notify` ran and is admitted.
      let result = await root.complete('go', { runId: 'tree' });
      expect(result.stopReason).toBe('awaiting_approval');
      expect(delegateCall(result).awaitingApproval).toBe(true);
      expect(await approveAll(store, ['tree'])).toEqual(['tree:delegate']);

      // Round 2: the child starts, runs `lookup`, and waits on its own gate for `cleanup`.
      result = await root.resume('tree');
      expect(result.stopReason).toBe('awaiting_approval');
      const details = (delegateCall(result).outcome as { error: { details: any } }).error.details;
      const [child] = await childRunsOf(store, 'tree');
      expect(child).toMatchObject({ parentCallId: 'call_delegate', agent: 'delegate', status: 'awaiting_approval' });
      expect(details).toEqual({ childRunId: child.runId, waitingRunIds: [child.runId] });
      expect((await store.loadRun('tree'))!.status).toBe('awaiting_approval');
      expect(await approveAll(store, [child.runId])).toEqual([`${child.runId}:cleanup`]);

      // Round 3: the grandchild starts and waits for `delete_file`; the root says which runs wait.
      result = await root.resume('tree');
      expect(result.stopReason).toBe('awaiting_approval');
      const [grandchild] = await childRunsOf(store, child.runId);
      expect(grandchild).toMatchObject({ parentCallId: 'call_cleanup', status: 'awaiting_approval' });
      expect((delegateCall(result).outcome as { error: { details: any } }).error.details).toEqual({
        childRunId: child.runId,
        waitingRunIds: [child.runId, grandchild.runId],
      });
      expect(count(dir, 'delete_file')).toBe(0);
      expect(await approveAll(store, [grandchild.runId])).toEqual([`${grandchild.runId}:delete_file`]);

      // Round 4: the leaf runs, each level answers the one above.
      result = await root.resume('tree');
      expect(result.stopReason).toBe('end_turn');
      expect(result.text).toContain('child done');
      expect(result.text).toContain('grandchild done: delete_file done');
      expect(delegateCall(result).outcome).toMatchObject({ ok: true, metadata: { childRunId: child.runId } });
      expect([count(dir, 'notify'), count(dir, 'lookup'), count(dir, 'delete_file')]).toEqual([1, 1, 1]);
      for (const runId of ['tree', child.runId, grandchild.runId])
        expect((await store.loadRun(runId))!.status).toBe('completed');
      expect((await store.loadRun(grandchild.runId))!.metadata).toMatchObject({
        [PARENT_RUN_ID]: child.runId,
        [PARENT_CALL_ID]: 'call_cleanup',
      });
    } finally {
      await store.close();
    }
  });

  it("a child that exceeds the parent call's deadline is cancelled and the parent sees timeout", async () => {
    const dir = tempDir();
    const store = await openStore(dir);
    try {
      let childSignal: AbortSignal | undefined;
      const slow = countingTools(dir, { crunch: { sideEffect: 'read', timeoutMs: 60_000 } });
      const child = new LlmAgentRunner(scriptedAgent(['crunch'], 'child done'), {
        ...slow,
        listTools: slow.listTools,
        invokeTool: async (invocation) => {
          childSignal = invocation.signal;
          await new Promise((resolve) => invocation.signal.addEventListener('abort', resolve, { once: true }));
          return 'too late';
        },
      });
      const parent = new LlmAgentRunner(
        scriptedAgent(['delegate'], 'parent done'),
        child.asTool({ name: 'delegate', description: 'Slow.', timeoutMs: 300 }),
        { store },
      );
      const started = Date.now();
      const result = await parent.complete('go', { runId: 'deadline' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(delegateCall(result).outcome).toMatchObject({ ok: false, error: { code: 'timeout' } });
      expect(childSignal?.aborted).toBe(true);
      const [childRun] = await childRunsOf(store, 'deadline');
      // The parent's call ends at its deadline at once; the cancelled child writes its status right after.
      for (let tries = 0; tries < 50 && (await store.loadRun(childRun.runId))!.status !== 'cancelled'; tries++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await store.loadRun(childRun.runId))!.status).toBe('cancelled');
    } finally {
      await store.close();
    }
  });
});
