import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readUIMessageStream } from 'ai';
import { LlmAgentError, MemoryRunStore, RunStore } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { FollowRunError, followRun, KeptRunEvent, RunEventLog } from '../../lib/durable';
import { followRunResponse, followUIMessageStream, toUIMessageStream, WuweUIMessage } from '../../lib/ui-stream';
import { buildRunner, executions } from '../../samples/08-ui-stream/agent';

jest.setTimeout(60_000);

const secret = 'a'.repeat(40);

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const values: T[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) values.push(next.value);
  return values;
}

/** The `id:` and `data:` of each server-sent event of a response. */
async function sseEvents(response: Response): Promise<{ id?: string; data: string }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
      const data = lines.find((line) => line.startsWith('data: '))!.slice(6);
      return { ...(id === undefined ? {} : { id }), data };
    });
}

describe.each([
  ['MemoryRunStore', (): RunStore => new MemoryRunStore()],
  [
    'SqliteRunStore',
    (dir: string): RunStore => new SqliteRunStore({ path: join(dir, 'runs.db'), eventPollIntervalMs: 5 }),
  ],
])('keepEvents and followRun on %s', (_name, open) => {
  let dir: string;
  let store: RunStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wuwe-follow-'));
    store = open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every stream event with consecutive ids; the followed UI chunks equal the live ones', async () => {
    const runId = 'run-kept';
    const liveStore = new MemoryRunStore();
    const approvals = { secret, store: liveStore };
    const live = await readAll(
      toUIMessageStream(buildRunner().stream('Refund order A-1', { runId, store: liveStore }), { approvals }),
    );
    const result = await buildRunner().complete('Refund order A-1', { runId, store, keepEvents: {} });
    expect(result.stopReason).toBe('awaiting_approval');
    const kept = await (store as unknown as RunEventLog).readRunEvents(runId);
    expect(kept.map((event) => event.id)).toEqual(kept.map((_event, index) => index + 1));
    expect(kept[0].event.type).toBe('run_started');
    expect(kept.at(-1)!.event).toMatchObject({ type: 'run_finished', result: { stopReason: 'awaiting_approval' } });
    expect(kept.at(-1)!.event.result).not.toHaveProperty('messages');

    const followed = await followUIMessageStream(store, runId, { approvals: { secret, store }, lastEventId: '0:0' });
    const chunks = (await readAll(followed!)).map((entry) => entry.chunk);
    // The approval ids are signed over the same run, call and arguments: equal across the two stores.
    expect(chunks).toEqual(live);
    expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(true);

    // Without a cursor: the run's last stream ended and the run waits for approval, so nothing to resume.
    expect((await followRunResponse(store, runId)).status).toBe(204);
  });

  it('resumes after any SSE id it issued: no chunk missed, none repeated', async () => {
    const runId = 'run-resume';
    await buildRunner().complete('Refund order A-1', { runId, store, keepEvents: {} });
    const sse = await sseEvents(await followRunResponse(store, runId, { lastEventId: '0:0' }));
    expect(sse.at(-1)).toEqual({ data: '[DONE]' });
    const all = sse.slice(0, -1);
    expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
    // After the last one the client has that whole stream: it would wait for the run's next stream.
    for (let index = 0; index < all.length - 1; index += 1) {
      const resumed = await sseEvents(await followRunResponse(store, runId, { lastEventId: all[index].id }));
      expect(resumed.slice(0, -1)).toEqual(all.slice(index + 1));
    }
    await expect(followRunResponse(store, runId, { lastEventId: 'nope' })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('reconnecting with the last id: the next stream while the run can go on, 204 once it ended', async () => {
    const runId = 'run-reconnect';
    await buildRunner().complete('Refund order A-1', { runId, store, keepEvents: {} });
    const first = (await sseEvents(await followRunResponse(store, runId, { lastEventId: '0:0' }))).slice(0, -1);
    const pending = (await store.loadRun(runId))!.approvals.find((approval) => approval.state === 'pending')!;
    const { callId, toolName, argumentsSha256 } = pending;
    const decision = { approved: true, toolName, argumentsSha256, decidedBy: 'spec' };
    await store.decideApproval(runId, callId, decision, { turn: pending.turn });
    // Reconnected before the run resumed: the response waits for the resumed stream and tells it whole.
    const reconnected = followRunResponse(store, runId, { lastEventId: first.at(-1)!.id }).then(sseEvents);
    expect((await buildRunner().resume(runId, { store, keepEvents: {} })).stopReason).toBe('end_turn');
    const second = (await reconnected).slice(0, -1);
    expect(second[0].data).toContain('"type":"start"');
    expect(second.at(-1)!.data).toContain('"type":"finish"');
    expect(second.some((event) => first.some((earlier) => earlier.id === event.id))).toBe(false);
    // The same stream again after any of its ids, or after the first stream's last one.
    const again = await sseEvents(await followRunResponse(store, runId, { lastEventId: first.at(-1)!.id }));
    expect(again.slice(0, -1)).toEqual(second);
    for (let index = 0; index < second.length - 1; index += 1) {
      const resumed = await sseEvents(await followRunResponse(store, runId, { lastEventId: second[index].id }));
      expect(resumed.slice(0, -1)).toEqual(second.slice(index + 1));
    }
    // The run completed and the client has all of it: nothing to follow, and no response left waiting.
    expect((await followRunResponse(store, runId, { lastEventId: second.at(-1)!.id })).status).toBe(204);
    expect(await followUIMessageStream(store, runId, { lastEventId: second.at(-1)!.id })).toBeUndefined();
  });

  it('follows a run live from another reader, each event once, and ends after its final event', async () => {
    const runId = 'run-live';
    await store.createRun({ runId, messages: [{ role: 'user', content: 'Refund order A-1' }] });
    const seen: KeptRunEvent[] = [];
    const following = (async () => {
      for await (const kept of followRun(store, runId)) seen.push(kept);
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const result = await buildRunner().resume(runId, { store, keepEvents: {} });
    await following;
    expect(seen.map((kept) => kept.id)).toEqual(seen.map((_kept, index) => index + 1));
    expect(seen.at(-1)!.event).toMatchObject({ type: 'run_finished', result: { stopReason: result.stopReason } });
    const message = await lastMessage(followedChunks(store, runId));
    expect(message.parts.some((part) => part.type === 'tool-LookupOrder' && part.state === 'output-available')).toBe(
      true,
    );
  });

  it('keeps at most maxPerRun events, dropping the oldest; following on past a drop is refused', async () => {
    const runId = 'run-bounded';
    await buildRunner().complete('Refund order A-1', { runId, store, keepEvents: { maxPerRun: 5 } });
    const kept = await (store as unknown as RunEventLog).readRunEvents(runId);
    expect(kept).toHaveLength(5);
    expect(kept.at(-1)!.event.type).toBe('run_finished');
    const first = kept[0].id;
    expect(first).toBeGreaterThan(1);
    const refused = await followRun(store, runId, { after: 1 })
      .next()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(FollowRunError.isInstance(refused) && refused.code).toBe('events_dropped');
    const tail = [];
    for await (const event of followRun(store, runId, { after: first - 1 })) tail.push(event.id);
    expect(tail).toEqual(kept.map((event) => event.id));
  });
});

function followedChunks(store: RunStore, runId: string): ReadableStream<unknown> {
  return new ReadableStream({
    async start(controller) {
      const followed = await followUIMessageStream(store, runId, { approvals: { secret, store }, lastEventId: '0:0' });
      for (const entry of await readAll(followed!)) controller.enqueue(entry.chunk);
      controller.close();
    },
  });
}

async function lastMessage(stream: ReadableStream<unknown>): Promise<WuweUIMessage> {
  let last: WuweUIMessage | undefined;
  for await (const value of readUIMessageStream<WuweUIMessage>({ stream: stream as never, terminateOnError: true }))
    last = value;
  return last!;
}

describe('keepEvents options', () => {
  it('needs a store that keeps events and a whole maxPerRun', async () => {
    await expect(buildRunner().complete('hi', { keepEvents: {} })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    await expect(
      buildRunner().complete('hi', { store: new MemoryRunStore(), keepEvents: { maxPerRun: 0 } }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
  });

  it('refuses a keepEvents that is not a policy object, before anything runs', async () => {
    for (const keepEvents of ['x', 5, true, [], () => ({}), null]) {
      const store = new MemoryRunStore();
      const ran = executions.lookup + executions.refund;
      const refused = await buildRunner()
        .complete('Refund order A-1', { store, keepEvents: keepEvents as never })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(LlmAgentError.isInstance(refused) && refused.code).toBe('invalid_run_options');
      expect((refused as Error).message).toMatch(/`keepEvents` must be a policy object/);
      expect(await store.listRuns()).toEqual([]);
      expect(executions.lookup + executions.refund).toBe(ran);
    }
    // stream(): refused at the call, as the other run options are.
    let thrown: unknown;
    try {
      buildRunner().stream('hi', { store: new MemoryRunStore(), keepEvents: null as never });
    } catch (error) {
      thrown = error;
    }
    expect(LlmAgentError.isInstance(thrown) && thrown.code).toBe('invalid_run_options');
  }, 10_000);
});

describe('a followed run and a slow reader', () => {
  it('reads the store only as the reader pulls: a paused reader holds the follower within one batch', async () => {
    const store = new MemoryRunStore();
    const runId = 'run-slow-reader';
    await store.createRun({ runId });
    const deltas = Array.from({ length: 3000 }, () => ({ type: 'text_delta', runId, step: 1, text: 'x'.repeat(100) }));
    await store.appendRunEvents(runId, [{ type: 'run_started', runId }, ...deltas], { maxPerRun: 10_000 });
    let read = 0;
    const readRunEvents = store.readRunEvents.bind(store);
    store.readRunEvents = async (id, options) => {
      const events = await readRunEvents(id, options);
      read += events.length;
      return events;
    };
    const controller = new AbortController();
    const stream = await followUIMessageStream(store, runId, { signal: controller.signal });
    const reader = stream!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // One batch (256 events) and the count of the plan, not the 3001 events kept.
    const planned = 3001;
    expect(read - planned).toBeLessThanOrEqual(256);
    for (let index = 0; index < 600; index += 1) await reader.read();
    expect(read - planned).toBeGreaterThan(256);
    expect(read - planned).toBeLessThanOrEqual(3 * 256);
    controller.abort();
    await reader.cancel();
  });
});
