import { join } from 'node:path';
import { LlmAgentRunner, MemoryRunStore, RunStore, ScriptedModelClient } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { FunctionProvider } from '../runner/support';
import { makeTempDir } from './temp-dir';

const temp = makeTempDir('approval-decision-shape');
afterAll(() => temp.cleanup());

const stores: [string, () => RunStore][] = [
  ['MemoryRunStore', () => new MemoryRunStore()],
  ['SqliteRunStore', () => new SqliteRunStore(join(temp.path, `${Math.random().toString(36).slice(2)}.db`))],
];

describe.each(stores)('a decision that is not one, on %s', (_name, open) => {
  it('is record_invalid and decides nothing: a truthy approved, a non-object, a throwing getter, mistyped fields', async () => {
    const store = open();
    await store.createRun({ runId: 'r' });
    const request = { callId: 'c1', toolName: 'delete_all', argumentsSha256: 'a'.repeat(64) };
    await store.requestApproval('r', request);
    const base = { toolName: request.toolName, argumentsSha256: request.argumentsSha256 };
    const decisions: unknown[] = [
      { ...base, approved: 'false' },
      { ...base, approved: 1 },
      { ...base, approved: {} },
      null,
      'approved',
      {
        ...base,
        get approved(): boolean {
          throw new Error('getter');
        },
      },
      { ...base, approved: true, reason: 5 },
      { ...base, approved: true, decidedBy: '' },
      { ...base, approved: true, decidedBy: 'a\ud800' },
      { approved: true, toolName: 7, argumentsSha256: request.argumentsSha256 },
    ];
    for (const decision of decisions)
      await expect(store.decideApproval('r', 'c1', decision as never)).rejects.toMatchObject({
        name: 'RunStoreError',
        code: 'record_invalid',
      });
    const record = await store.loadRun('r');
    expect(record?.approvals.map((approval) => approval.state)).toEqual(['pending']);
    await store.close();
  });
});

describe('an approval handler answer is read once', () => {
  it('a handler answering a non-boolean, or a getter that answers otherwise after the check, never runs the tool', async () => {
    let reads = 0;
    const answers: unknown[] = [
      { approved: 'yes' },
      {
        get approved(): unknown {
          reads++;
          return reads === 1 ? false : 'yes';
        },
      },
      {
        get approved(): boolean {
          throw new Error('getter');
        },
      },
    ];
    for (const answer of answers) {
      const provider = new FunctionProvider().add('delete_all', () => 'deleted', { approval: 'always' });
      const result = await new LlmAgentRunner(
        new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'delete_all', arguments: {} }] }, { text: 'ok' }]),
        provider,
      ).complete('go', { approvalHandler: () => answer as never });
      expect(provider.calls).toHaveLength(0);
      expect(result.toolCalls[0]?.outcome).toMatchObject({ ok: false, error: { code: 'approval_denied' } });
    }
    expect(reads).toBe(1);
  });
});
