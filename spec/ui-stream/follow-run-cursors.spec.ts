import 'reflect-metadata';
import { join } from 'node:path';
import {
  AgentRunStatus,
  LlmAgentRunner,
  MemoryRunStore,
  ReflectedToolProvider,
  RunStore,
  RunStoreError,
  ScriptedModelClient,
} from '../../lib';
import { FollowRunError, followRun, RunEventLog } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { JsonObject } from '../../lib/outcome/json-value';
import { FollowedUIChunk, followRunResponse, followUIMessageStream, UIStreamError } from '../../lib/ui-stream';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';

// Every follow here either settles at once or is checked to be still waiting after a short while: nothing relies on
// a hang to fail, and each test is bounded well below jest's default.
const SHORT = 10_000;

const temp = makeTempDir('follow-cursors');
const schemas = new TestSchemas();
afterAll(async () => {
  temp.cleanup();
  await schemas.dropAll();
});

type EventStore = RunStore & RunEventLog;

const PENDING = Symbol('pending');

/** What `promise` settled with within `ms`, `PENDING` when it is still waiting (rejections are returned). */
async function within(promise: Promise<unknown>, ms = 1_000): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof PENDING>((resolve) => (timer = setTimeout(() => resolve(PENDING), ms)));
  try {
    return await Promise.race([promise.catch((error: unknown) => error), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const values: T[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) values.push(next.value);
  return values;
}

function expectInvalidCursor(settled: unknown, runId: string): void {
  expect(settled).not.toBe(PENDING);
  expect(FollowRunError.isInstance(settled)).toBe(true);
  expect(settled).toMatchObject({ code: 'invalid_cursor', runId });
}

const runner = (): LlmAgentRunner =>
  new LlmAgentRunner(new ScriptedModelClient([{ text: 'hello world' }]), new ReflectedToolProvider([]));

/** The kept events of a completed run (a scripted answer), recorded once on a memory store. */
let doneEvents: JsonObject[];
beforeAll(async () => {
  const memory = new MemoryRunStore();
  await runner().complete('hi', { store: memory, runId: 'done', keepEvents: {} });
  doneEvents = (await memory.readRunEvents('done')).map((kept) => kept.event);
});

/** Run `runId` in `store` as a runner would leave it: its kept events, then its status. */
async function recordedRun(
  store: EventStore,
  runId: string,
  events: readonly JsonObject[],
  status: AgentRunStatus,
): Promise<void> {
  await store.createRun({ runId });
  if (events.length > 0) await store.appendRunEvents(runId, events, { maxPerRun: 100 });
  if (status !== 'running') await store.setStatus(runId, status);
}

/** The stores that keep events in this process's files and memory. */
const LOCAL_STORES: [string, () => Promise<EventStore>][] = [
  ['MemoryRunStore', async (): Promise<EventStore> => new MemoryRunStore()],
  [
    'SqliteRunStore',
    async (): Promise<EventStore> =>
      new SqliteRunStore({
        path: join(temp.path, `${Math.random().toString(36).slice(2)}.db`),
        eventPollIntervalMs: 5,
      }),
  ],
];

describe.each([
  ...LOCAL_STORES,
  [
    'PostgresRunStore',
    async (): Promise<EventStore> =>
      PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh(), maxConnections: 4 }),
  ],
])('cursors the store never issued, on %s', (_name, open) => {
  let store: EventStore;
  /** The last event id of the completed run `done`. */
  let last: number;
  /** The SSE ids of the whole stream of `done`, in order. */
  let issued: string[];
  beforeEach(async () => {
    store = await open();
    await recordedRun(store, 'done', doneEvents, 'completed');
    last = (await store.readRunEvents('done')).at(-1)!.id;
    issued = (await readAll((await followUIMessageStream(store, 'done', { lastEventId: '0:0' }))!)).map(
      (entry) => entry.id,
    );
    const started: JsonObject[] = [
      { type: 'run_started', runId: 'live' },
      { type: 'text_delta', runId: 'live', text: 'x' },
    ];
    await recordedRun(store, 'live', started, 'running');
  });
  afterEach(() => store.close());

  it(
    'followRun refuses an after past the last event id, at once, on an ended and on a running run',
    async () => {
      for (const after of [last + 1, 1_000_000, 999_999_999_999_999])
        expectInvalidCursor(await within(followRun(store, 'done', { after }).next()), 'done');
      expectInvalidCursor(await within(followRun(store, 'live', { after: 3 }).next()), 'live');
      await expect(followRun(store, 'nope', { after: 5 }).next()).rejects.toMatchObject({ code: 'run_not_found' });
    },
    SHORT,
  );

  it(
    'followRun after the final event of a completed run ends at once; on a running run it waits for the next event',
    async () => {
      expect(await within(followRun(store, 'done', { after: last }).next())).toEqual({ done: true, value: undefined });
      const controller = new AbortController();
      const waiting = followRun(store, 'live', { after: 2, signal: controller.signal }).next();
      expect(await within(waiting, 200)).toBe(PENDING);
      await store.appendRunEvents('live', [{ type: 'run_finished', runId: 'live' }], { maxPerRun: 100 });
      expect(await within(waiting)).toMatchObject({ done: false, value: { id: 3, event: { type: 'run_finished' } } });
      controller.abort();
    },
    SHORT,
  );

  it(
    'followRun on a cancelled run after its last final event, or a completed run that kept nothing, ends at once',
    async () => {
      await store.appendRunEvents('live', [{ type: 'run_finished', runId: 'live' }], { maxPerRun: 100 });
      await store.setStatus('live', 'cancelled');
      expect(await within(followRun(store, 'live', { after: 3 }).next())).toEqual({ done: true, value: undefined });
      await recordedRun(store, 'unkept', [], 'completed');
      expect(await within(followRun(store, 'unkept').next())).toEqual({ done: true, value: undefined });
      expect(await within(followRunResponse(store, 'unkept').then((response) => response.status))).toBe(204);
    },
    SHORT,
  );

  it(
    'followRunResponse and followUIMessageStream refuse an event id past the last one, before answering',
    async () => {
      for (const lastEventId of ['999999:0', `${last + 1}:0`, '999999999999999:0'])
        expectInvalidCursor(await within(followRunResponse(store, 'done', { lastEventId })), 'done');
      // A running run: refused too, instead of a stream that swallows every chunk to come.
      expectInvalidCursor(await within(followUIMessageStream(store, 'live', { lastEventId: '999999999:0' })), 'live');
      expectInvalidCursor(await within(followRunResponse(store, 'live', { lastEventId: '3:0' })), 'live');
    },
    SHORT,
  );

  it(
    'refuses a chunk index past the chunks of its event, and any id not in the form the stream issues',
    async () => {
      const chunksOf = new Map<string, number>();
      for (const id of issued) {
        const [event, chunk] = id.split(':');
        chunksOf.set(event, Math.max(chunksOf.get(event) ?? 0, Number(chunk) + 1));
      }
      for (const [event, count] of chunksOf)
        expectInvalidCursor(
          await within(followRunResponse(store, 'done', { lastEventId: `${event}:${count}` })),
          'done',
        );
      for (const lastEventId of ['1:999999', '0:1', '01:0', '1:00', '-1:0', '1', ':', '1:0:0', ''])
        expectInvalidCursor(await within(followUIMessageStream(store, 'done', { lastEventId })), 'done');
    },
    SHORT,
  );

  it(
    'refuses a lastEventId that is not a string as invalid_cursor (no raw TypeError)',
    async () => {
      for (const lastEventId of [7, {}, { trim: () => '1:0' }, ['1:0'], true])
        expectInvalidCursor(
          await within(followUIMessageStream(store, 'done', { lastEventId: lastEventId as never })),
          'done',
        );
    },
    SHORT,
  );

  it(
    'still resumes after every id it issued, answers 204 after the last one of the ended run, and waits on a running one',
    async () => {
      for (let index = 0; index < issued.length - 1; index += 1) {
        const rest = await readAll((await followUIMessageStream(store, 'done', { lastEventId: issued[index] }))!);
        expect(rest.map((entry) => entry.id)).toEqual(issued.slice(index + 1));
      }
      expect(await within(followUIMessageStream(store, 'done', { lastEventId: issued.at(-1)! }))).toBeUndefined();
      expect(
        await within(followRunResponse(store, 'done', { lastEventId: ` ${issued.at(-1)!} ` }).then((r) => r.status)),
      ).toBe(204);

      const controller = new AbortController();
      const live = (await followUIMessageStream(store, 'live', { lastEventId: '2:1', signal: controller.signal }))!;
      const reader = live.getReader();
      const next = reader.read();
      expect(await within(next, 200)).toBe(PENDING);
      await store.appendRunEvents('live', [{ type: 'text_delta', runId: 'live', text: 'y' }], { maxPerRun: 100 });
      expect(await within(next)).toMatchObject({ done: false, value: { id: '3:0', chunk: { type: 'text-delta' } } });
      controller.abort();
      await reader.cancel();
    },
    SHORT,
  );

  it(
    'afterEvent starts with the next event, checked like a cursor',
    async () => {
      for (let event = 1; event <= last; event += 1) {
        const lastChunk = issued.filter((id) => id.startsWith(`${event}:`)).at(-1);
        if (lastChunk === undefined) continue;
        const after = await followUIMessageStream(store, 'done', { afterEvent: event });
        const viaId = await followUIMessageStream(store, 'done', { lastEventId: lastChunk });
        const ids = (stream: ReadableStream<FollowedUIChunk> | undefined) =>
          stream === undefined ? Promise.resolve(undefined) : readAll(stream).then((all) => all.map((e) => e.id));
        expect(await ids(after)).toEqual(await ids(viaId));
      }
      expect(
        (await readAll((await followUIMessageStream(store, 'done', { afterEvent: 0 }))!)).map((e) => e.id),
      ).toEqual(issued);
      for (const afterEvent of [last + 1, -1, 1.5, Number.NaN, '3'])
        expectInvalidCursor(
          await within(followUIMessageStream(store, 'done', { afterEvent: afterEvent as never })),
          'done',
        );
      const both = await within(followUIMessageStream(store, 'done', { afterEvent: 1, lastEventId: '1:0' }));
      expect(UIStreamError.isInstance(both) && both.code).toBe('invalid_options');
    },
    SHORT,
  );

  it(
    'an unknown run is run_not_found before the stream starts, with or without a cursor',
    async () => {
      for (const lastEventId of [undefined, '0:0', '5:0']) {
        const settled = await within(
          followUIMessageStream(store, 'nope', lastEventId === undefined ? {} : { lastEventId }),
        );
        expect(RunStoreError.isInstance(settled) && settled.code).toBe('run_not_found');
      }
    },
    SHORT,
  );
});

describe('a cursor whose next events were dropped by retention', () => {
  it(
    'is refused with events_dropped before the stream starts, not followed across the gap',
    async () => {
      const store = new MemoryRunStore();
      await runner().complete('hi', { store, runId: 'bounded', keepEvents: { maxPerRun: 2 } });
      const kept = await store.readRunEvents('bounded');
      expect(kept[0].id).toBeGreaterThan(2);
      const settled = await within(followUIMessageStream(store, 'bounded', { lastEventId: '1:0' }));
      expect(FollowRunError.isInstance(settled) && settled.code).toBe('events_dropped');
    },
    SHORT,
  );
});

describe.each(LOCAL_STORES)(
  'a follower waiting on %s for a run that is then cancelled without a final event',
  (_name, open) => {
    it(
      'ends once it reads the status again, instead of waiting for a stream that never comes',
      async () => {
        const store = await open();
        await recordedRun(store, 'waiting', doneEvents, 'awaiting_approval');
        const last = (await store.readRunEvents('waiting')).at(-1)!.id;
        const followed: unknown[] = [];
        const following = (async () => {
          for await (const kept of followRun(store, 'waiting', { after: last, statusCheckMs: 50 })) followed.push(kept);
          return 'ended';
        })();
        expect(await within(following, 200)).toBe(PENDING);
        await store.setStatus('waiting', 'cancelled');
        expect(await within(following, 2_000)).toBe('ended');
        expect(followed).toEqual([]);
        await store.close();
      },
      SHORT,
    );

    it('refuses a statusCheckMs that is not a positive number of milliseconds', async () => {
      const store = await open();
      await recordedRun(store, 'r', doneEvents, 'completed');
      for (const statusCheckMs of [0, -1, Number.NaN, '5' as never])
        await expect(followRun(store, 'r', { statusCheckMs }).next()).rejects.toMatchObject({ code: 'record_invalid' });
      await store.close();
    });
  },
);
