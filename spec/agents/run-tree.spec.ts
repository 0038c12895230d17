import { MemoryRunStore } from '../../lib';
import { ancestorsOf, childRunsOf, loadRunTree } from '../../lib/agents';
import { makeTempDir } from '../durable/temp-dir';
import { agentTree } from './agent-tree';

describe('loadRunTree', () => {
  const dir = makeTempDir('run-tree');
  afterAll(() => dir.cleanup());

  it('reads a three-level tree from the run metadata, each child under the call and turn that started it', async () => {
    const store = new MemoryRunStore();
    const root = agentTree(dir.path, { store, approvalHandler: () => ({ approved: true }) });
    expect((await root.complete('go', { runId: 'tree' })).stopReason).toBe('end_turn');
    // A run of another tree whose id shares the prefix but not the separator is not part of it.
    await store.createRun({ runId: 'tree-2', messages: [{ role: 'user', content: 'x' }] });

    const tree = (await loadRunTree(store, 'tree'))!;
    const [child] = await childRunsOf(store, 'tree');
    const [grandchild] = await childRunsOf(store, child.runId);
    expect(tree.record.runId).toBe('tree');
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({ agent: 'delegate', parentCallId: 'call_delegate', parentTurn: 1 });
    expect(tree.children[0].record.runId).toBe(child.runId);
    expect(tree.children[0].children[0]).toMatchObject({
      agent: 'cleanup',
      parentCallId: 'call_cleanup',
      parentTurn: 1,
    });
    expect(tree.children[0].children[0].record.runId).toBe(grandchild.runId);
    expect(tree.children[0].children[0].children).toEqual([]);

    // From the child: its subtree, with its own link to the root's call.
    const sub = (await loadRunTree(store, child.runId))!;
    expect(sub).toMatchObject({ agent: 'delegate', parentCallId: 'call_delegate', parentTurn: 1 });
    expect(sub.children.map((node) => node.record.runId)).toEqual([grandchild.runId]);

    const grandchildRecord = (await store.loadRun(grandchild.runId))!;
    expect((await ancestorsOf(store, grandchildRecord)).map((record) => record.runId)).toEqual(['tree', child.runId]);
    expect(await ancestorsOf(store, tree.record)).toEqual([]);
    expect(await loadRunTree(store, 'missing')).toBeUndefined();
  });
});
