import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { MemoryRunStore, RunStore, RunStoreError } from '../../lib';
import { followRun, RunEventLog } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { JsonObject } from '../../lib/outcome/json-value';
import { requirePostgresUrl, TestSchemas } from './postgres-env';
import { makeTempDir } from './temp-dir';

const temp = makeTempDir('run-events-append');
const schemas = new TestSchemas();
afterAll(async () => {
  temp.cleanup();
  await schemas.dropAll();
});

type EventStore = RunStore & RunEventLog;

/** An event as a caller might hand it over: not always JSON. */
const unkeepable = (): [string, unknown][] => {
  const cyclic: Record<string, unknown> = { type: 'x' };
  cyclic.self = cyclic;
  return [
    ['a BigInt', { type: 'x', n: BigInt(1) }],
    ['a cycle', cyclic],
    ['a toJSON that answers undefined', { type: 'x', toJSON: () => undefined }],
    ['a toJSON that drops the type', { type: 'x', toJSON: () => ({ other: 1 }) }],
    ['a toJSON that answers an array', { type: 'x', toJSON: () => [{ type: 'x' }] }],
    [
      'a toJSON that throws',
      {
        type: 'x',
        toJSON: () => {
          throw new Error('no JSON here');
        },
      },
    ],
    [
      'a getter type that is gone once serialized',
      {
        get type() {
          return 'x';
        },
        toJSON: () => ({ notype: 1 }),
      },
    ],
    ['a number type', { type: 7 }],
    ['no type', { text: 'hello' }],
    ['a string', 'run_started'],
    ['null', null],
    ['an array', [{ type: 'x' }]],
    ['a function', () => ({ type: 'x' })],
  ];
};

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'accepted',
    (error: unknown) => error,
  );
}

describe.each([
  ['MemoryRunStore', async (): Promise<EventStore> => new MemoryRunStore()],
  [
    'SqliteRunStore',
    async (): Promise<EventStore> =>
      new SqliteRunStore({ path: join(temp.path, `${Math.random().toString(36).slice(2)}.db`) }),
  ],
  [
    'PostgresRunStore',
    async (): Promise<EventStore> =>
      PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh(), maxConnections: 3 }),
  ],
])('appendRunEvents on %s', (_name, open) => {
  let store: EventStore;
  beforeEach(async () => {
    store = await open();
    await store.createRun({ runId: 'r' });
    await store.appendRunEvents('r', [{ type: 'run_started', runId: 'r' }], { maxPerRun: 100 });
  });
  afterEach(() => store.close());

  it.each(unkeepable())(
    'refuses an event with %s as record_invalid, writes nothing, and the log stays readable',
    async (_what, event) => {
      const refused = await refusal(store.appendRunEvents('r', [event as JsonObject], { maxPerRun: 100 }));
      expect(RunStoreError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ code: 'record_invalid', runId: 'r' });
      expect((refused as Error).message).toMatch(/run event 0 cannot be kept/);
      expect((await store.readRunEvents('r')).map((kept) => kept.event)).toEqual([{ type: 'run_started', runId: 'r' }]);
      // No id was taken: the next event gets 2.
      expect(await store.appendRunEvents('r', [{ type: 'text_delta', text: 'a' }], { maxPerRun: 100 })).toBe(2);
    },
    10_000,
  );

  it('refuses a whole batch when one of its events cannot be kept: none of it is written', async () => {
    const batch = [{ type: 'a' }, { type: 'b', n: BigInt(2) }, { type: 'c' }] as unknown as JsonObject[];
    const refused = await refusal(store.appendRunEvents('r', batch, { maxPerRun: 100 }));
    expect(refused).toMatchObject({ code: 'record_invalid' });
    expect((refused as Error).message).toMatch(/run event 1 cannot be kept/);
    expect(await store.readRunEvents('r')).toHaveLength(1);
    const appended = await store.appendRunEvents('r', [{ type: 'a' }, { type: 'c' }], { maxPerRun: 100 });
    expect(appended).toBe(3);
  }, 10_000);

  it('refuses events that are not an array as record_invalid', async () => {
    const refused = await refusal(store.appendRunEvents('r', { type: 'x' } as never, { maxPerRun: 100 }));
    expect(refused).toMatchObject({ code: 'record_invalid' });
    expect(await store.readRunEvents('r')).toHaveLength(1);
  }, 10_000);

  it('keeps an event as its JSON form, read back equal, and followRun reads it', async () => {
    const event = { type: 'text_delta', at: new Date(0), toString: () => 'ignored', nested: { toJSON: () => 'n' } };
    expect(await store.appendRunEvents('r', [event as unknown as JsonObject], { maxPerRun: 100 })).toBe(2);
    const kept = await store.readRunEvents('r', { after: 1 });
    expect(kept.map((entry) => entry.event)).toEqual([
      { type: 'text_delta', at: '1970-01-01T00:00:00.000Z', nested: 'n' },
    ]);
    await store.appendRunEvents('r', [{ type: 'run_finished' }], { maxPerRun: 100 });
    const followed = [];
    for await (const entry of followRun(store, 'r')) followed.push(entry.id);
    expect(followed).toEqual([1, 2, 3]);
  }, 10_000);
});

describe('a kept event row edited outside the store', () => {
  it('SQLite: reads as record_invalid (typed), not a raw SyntaxError', async () => {
    const path = join(temp.path, 'edited.db');
    const store = new SqliteRunStore({ path });
    try {
      await store.createRun({ runId: 'r' });
      await store.appendRunEvents('r', [{ type: 'run_started' }, { type: 'text_delta' }], { maxPerRun: 10 });
      const db = new Database(path);
      db.prepare("UPDATE wuwe_run_events SET event_json = 'not json' WHERE event_id = 2").run();
      db.prepare("INSERT INTO wuwe_run_events VALUES ('r', 3, '[1]', 'now')").run();
      db.close();
      const read = await refusal(store.readRunEvents('r'));
      expect(RunStoreError.isInstance(read)).toBe(true);
      expect(read).toMatchObject({ code: 'record_invalid' });
      expect((read as Error).message).toMatch(/stored run event 2/);
      await expect(followRun(store, 'r').next()).rejects.toMatchObject({ code: 'record_invalid' });
    } finally {
      await store.close();
    }
  }, 10_000);

  it('PostgreSQL: reads as record_invalid (typed), not a raw SyntaxError', async () => {
    const schema = schemas.fresh();
    const store = await PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema, maxConnections: 3 });
    const admin = new Pool({ connectionString: requirePostgresUrl(), max: 1 });
    try {
      await store.createRun({ runId: 'r' });
      await store.appendRunEvents('r', [{ type: 'run_started' }], { maxPerRun: 10 });
      await admin.query(`UPDATE "${schema}".wuwe_run_events SET event_json = '{"type": 1}'`);
      await expect(store.readRunEvents('r')).rejects.toMatchObject({ code: 'record_invalid' });
    } finally {
      await admin.end();
      await store.close();
    }
  }, 10_000);
});
