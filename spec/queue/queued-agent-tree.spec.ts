import type { RunStore } from '../../lib';
import { childRunsOf } from '../../lib/agents';
import { RunQueueError, startWorker } from '../../lib/queue';
import { agentTree, countOf } from '../agents/agent-tree';
import { describePostgres } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';
import { waitFor } from './worker-processes';
import { useQueueFixtures } from './queue-fixture';

jest.setTimeout(90_000);
const fixture = useQueueFixtures();
const temp = makeTempDir('queued-tree');
afterAll(() => temp.cleanup());

const count = (tool: string): number => countOf(temp.path, tool);

/** The pending approvals of a run and of every run below it. */
async function pendingInTree(
  store: RunStore,
  runId: string,
): Promise<{ runId: string; callId: string; toolName: string }[]> {
  const record = await store.loadRun(runId);
  const own = (record?.approvals ?? [])
    .filter((approval) => approval.state === 'pending')
    .map((approval) => ({ runId, callId: approval.callId, toolName: approval.toolName }));
  const children = await childRunsOf(store, runId);
  const below = await Promise.all(children.map((child) => pendingInTree(store, child.runId)));
  return [...own, ...below.flat()];
}

describePostgres('a queued agent tree whose leaf waits for an approval', () => {
  it("deciding the leaf's approval through the queue resumes the root on a worker, and every side effect runs once", async () => {
    const f = await fixture();
    const worker = startWorker({
      queue: f.queue,
      agents: { tree: { runner: agentTree(temp.path) } },
      concurrency: 1,
      pollIntervalMs: 50,
    });
    try {
      const runId = await f.queue.enqueue({ agent: 'tree', input: 'tidy up' });
      // Each level asks in turn (the agent tools are destructive, as the leaf is): decided through the queue wherever
      // in the tree it waits, until the root completes.
      const decidedIn: string[] = [];
      for (let level = 0; level < 3; level++) {
        await waitFor(
          async () =>
            (await f.store.loadRun(runId))?.status === 'awaiting_approval' &&
            (await pendingInTree(f.store, runId)).length > 0,
          60_000,
          'the root waits on an approval in its tree',
        );
        const waiting = await pendingInTree(f.store, runId);
        expect(waiting).toHaveLength(1);
        const [{ runId: waitingRunId, callId, toolName }] = waiting;
        if (toolName === 'delete_file') expect(count('delete_file')).toBe(0);
        const decided = await f.queue.decideApproval(waitingRunId, callId, { approved: true, decidedBy: 'ops' });
        expect(decided.resumeEnqueued).toBe(true);
        decidedIn.push(`${waitingRunId === runId ? 'root' : 'child'}:${toolName}`);
      }
      expect(decidedIn).toEqual(['root:delegate', 'child:cleanup', 'child:delete_file']);
      await waitFor(async () => (await f.store.loadRun(runId))?.status === 'completed', 60_000, 'root completed');
      expect({ notify: count('notify'), lookup: count('lookup'), delete_file: count('delete_file') }).toEqual({
        notify: 1,
        lookup: 1,
        delete_file: 1,
      });
    } finally {
      await worker.stop();
    }
  });

  it('a run whose metadata claims a parent that never started it is refused job_mismatch, and nothing is enqueued', async () => {
    const f = await fixture();
    const root = await f.queue.enqueue({ agent: 'tree', input: 'tidy up' });
    // A run made by hand, claiming to be a child of the queued root.
    await f.store.createRun({ runId: 'forged-child', metadata: { parentRunId: root, parentCallId: 'call_delegate' } });
    await f.store.setStatus('forged-child', 'awaiting_approval');
    const failure = await f.queue.resumeAfterApproval('forged-child').catch((error: unknown) => error);
    expect(RunQueueError.isInstance(failure) && failure.code).toBe('job_mismatch');
  });
});
