import { join } from 'node:path';
import { MemoryRunStore, RunStore, RunStoreError } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { identity } from './run-store-suite';
import { makeTempDir } from './temp-dir';

const dir = makeTempDir('lone-surrogate');
afterAll(() => dir.cleanup());
let counter = 0;

const stores: [string, () => RunStore][] = [
  ['MemoryRunStore', () => new MemoryRunStore()],
  ['SqliteRunStore', () => new SqliteRunStore({ path: join(dir.path, `db-${++counter}`, 'runs.db') })],
];

describe.each(stores)('%s refuses ids that are not well-formed UTF-16', (_name, makeStore) => {
  let store: RunStore;
  beforeEach(() => {
    store = makeStore();
  });
  afterEach(async () => {
    await store.close();
  });

  const expectInvalid = async (write: Promise<unknown>, what: string) => {
    const error = await write.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ code: 'record_invalid' });
    expect((error as Error).message).toContain(`${what} may not hold a lone surrogate`);
  };

  it('createRun: a run id or lease worker id with a lone surrogate, nothing is written', async () => {
    await expectInvalid(store.createRun({ runId: 'r\ud800' }), 'runId');
    await expectInvalid(store.createRun({ runId: 'r', lease: { workerId: 'w\udfff', ttlMs: 1_000 } }), 'workerId');
    expect(await store.loadRun('r')).toBeUndefined();
    expect(await store.loadRun('r\ufffd')).toBeUndefined();
  });

  it('recordCallStarted: two lone-surrogate call ids never collide; the tool name and key are checked too', async () => {
    await store.createRun({ runId: 'r' });
    await expectInvalid(store.recordCallStarted('r', identity('\ud800', { x: 'a' })), 'callId');
    await expectInvalid(store.recordCallStarted('r', identity('\udfff', { x: 'a' })), 'callId');
    await expectInvalid(
      store.recordCallStarted('r', identity('c', { x: 'a' }, { toolName: 'send\ud83d' })),
      'toolName',
    );
    await expectInvalid(
      store.recordCallStarted('r', identity('c', { x: 'a' }, { idempotencyKey: 'k\udc00' })),
      'idempotencyKey',
    );
    expect((await store.loadRun('r'))!.toolCalls).toEqual([]);
  });

  it('a well-formed id with an astral character is kept exactly, and U+FFFD is its own id', async () => {
    await store.createRun({ runId: 'r' });
    await store.recordCallStarted('r', identity('\ud83d\ude00', { x: 'a' }));
    await store.recordCallStarted('r', identity('\ufffd', { x: 'b' }));
    const callIds = (await store.loadRun('r'))!.toolCalls.map((call) => call.callId);
    expect(callIds.sort()).toEqual(['\ud83d\ude00', '\ufffd'].sort());
  });

  it('requestApproval: a call id with a lone surrogate', async () => {
    await store.createRun({ runId: 'r' });
    const argumentsSha256 = identity('c', { x: 'a' }).argumentsSha256;
    await expectInvalid(
      store.requestApproval('r', { callId: 'c\ud800', toolName: 'send_email', argumentsSha256 }),
      'callId',
    );
  });
});
