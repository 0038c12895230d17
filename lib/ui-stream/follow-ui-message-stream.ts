import type { RunStore } from '../durable/run-store';
import { followRun, FINAL_RUN_EVENT_TYPES } from '../durable/run-events/follow-run';
import { FollowRunError } from '../durable/run-events/follow-run-error';
import { hasRunEventLog, KeptRunEvent, RunEventLog } from '../durable/run-events/run-event-log';
import type { LlmAgentStreamEvent } from '../runner/stream/stream-events';
import { keyOfSigning } from './ui-approval-id';
import { UIChunkTranslator } from './ui-chunk-translator';
import type { WuweUIMessageChunk } from './ui-message-types';
import type { ToUIMessageStreamOptions } from './ui-stream-options';

/** One chunk of a followed run with its SSE event id (`<kept event id>:<chunk index in that event>`). */
export interface FollowedUIChunk {
  readonly id: string;
  readonly chunk: WuweUIMessageChunk;
}

/** Options of {@link followUIMessageStream}. */
export interface FollowUIMessageStreamOptions extends ToUIMessageStreamOptions {
  /**
   * The id of the last chunk the client got (the SSE `Last-Event-ID` header): the stream continues right after it.
   * Without it the stream replays the run's current stream (its events since its last final event) from its start,
   * as the AI SDK's `resume` expects (`resumeStreamIsReplay`). `'0:0'` starts at the first kept event (the run's
   * first stream, finished or not).
   */
  readonly lastEventId?: string | null;
  /** Ends the stream when it aborts. */
  readonly signal?: AbortSignal;
}

/** Where a followed stream starts: after which kept event, and the chunks already delivered. */
interface FollowPlan {
  readonly after: number;
  readonly delivered?: { readonly event: number; readonly chunk: number };
  /**
   * No event was kept after the cursor's and the run can have no next stream (it is neither running nor waiting for
   * approval): a client that has all of its last stream is told there is nothing to follow, instead of waiting for a
   * stream that never comes.
   */
  readonly ended?: boolean;
}

/** The statuses of a run that has a stream still to come: the current one, or the one its resume tells. */
const STREAMING_STATUSES: ReadonlySet<string> = new Set(['running', 'awaiting_approval']);

/**
 * Where following `runId` starts, or `undefined` when there is nothing to follow: no cursor, the run's kept events
 * end with a final event and the run is not running (a host answers `204`). With a cursor, whether the run ended.
 * @throws {@link FollowRunError} `no_event_log`, `invalid_cursor`.
 * @internal
 */
export async function planFollow(
  store: RunStore,
  runId: string,
  lastEventId: string | null | undefined,
): Promise<FollowPlan | undefined> {
  if (!hasRunEventLog(store))
    throw new FollowRunError('no_event_log', runId, 'the store keeps no run events (it is not a RunEventLog)');
  const delivered = lastEventId === undefined || lastEventId === null ? undefined : cursorOf(runId, lastEventId);
  const kept = await keptTypes(store, runId, delivered?.event);
  const finals = kept.filter((event) => FINAL_RUN_EVENT_TYPES.has(event.type));
  if (delivered !== undefined) {
    const before = finals.filter((event) => event.id < delivered.event).at(-1);
    // The run's status is read only when no event follows the cursor's: with one, there is more to follow anyway.
    const later = await store.readRunEvents(runId, { after: delivered.event, limit: 1 });
    const status = later.length === 0 ? (await store.loadRun(runId))?.status : 'running';
    return { after: before?.id ?? 0, delivered, ended: status === undefined || !STREAMING_STATUSES.has(status) };
  }
  const last = kept.at(-1);
  if (last !== undefined && FINAL_RUN_EVENT_TYPES.has(last.type)) {
    const record = await store.loadRun(runId);
    if (record?.status !== 'running') return undefined;
    return { after: last.id };
  }
  return { after: finals.at(-1)?.id ?? 0 };
}

/**
 * The UI message stream of a run followed through its store (events kept with `keepEvents`, see `followRun()`):
 * the chunks `toUIMessageStream()` tells for the same events, each with an id to resume after. Resuming with the
 * last id the client got (`lastEventId`) misses no chunk and repeats none; the run's current stream is replayed
 * from its start otherwise. Ends after the stream's final event (the run's result, or its error). A client that has
 * all of the last stream of a run that ended (completed, stopped, failed, cancelled) gets `undefined`: nothing to
 * follow; for a run waiting for approval or running, the stream goes on with the run's next stream.
 *
 * @throws {@link durable!FollowRunError} (`no_event_log`, `invalid_cursor`, `events_dropped`) and
 *   {@link UIStreamError} `invalid_options`, before the stream starts.
 */
export async function followUIMessageStream(
  store: RunStore,
  runId: string,
  options: FollowUIMessageStreamOptions = {},
): Promise<ReadableStream<FollowedUIChunk> | undefined> {
  if (options.approvals !== undefined) keyOfSigning(options.approvals);
  const plan = await planFollow(store, runId, options.lastEventId);
  if (plan === undefined) return undefined;
  const { lastEventId: _lastEventId, signal, ...translation } = options;
  const follow = (after: number): AsyncGenerator<KeptRunEvent, void, undefined> =>
    followRun(store, runId, { after, ...(signal === undefined ? {} : { signal }) });
  let translator = new UIChunkTranslator(runId, translation);
  let events = follow(plan.after);
  let lastId = plan.after;
  let told = false;
  const stream = new ReadableStream<FollowedUIChunk>(
    {
      async pull(controller) {
        for (;;) {
          const next = await events.next();
          if (next.done === true) {
            // The client had the whole of that stream (its final event included): follow the run's next one.
            const followOn = !told && plan.delivered !== undefined && lastId <= plan.delivered.event;
            if (followOn && plan.ended !== true && signal?.aborted !== true) {
              translator = new UIChunkTranslator(runId, translation);
              events = follow(lastId);
              continue;
            }
            controller.close();
            return;
          }
          const { id } = next.value;
          lastId = id;
          const chunks = await chunksOfKept(translator, next.value);
          let enqueued = 0;
          chunks.forEach((chunk, index) => {
            const { delivered } = plan;
            if (
              delivered !== undefined &&
              (id < delivered.event || (id === delivered.event && index <= delivered.chunk))
            )
              return;
            controller.enqueue({ id: `${id}:${index}`, chunk });
            enqueued += 1;
          });
          if (enqueued === 0) continue;
          told = true;
          return;
        }
      },
      async cancel() {
        await events.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
  return plan.ended === true ? nonEmpty(stream) : stream;
}

/**
 * `stream`, or `undefined` when it holds no chunk. Only for a run that ended: its stream reads kept events only, so
 * the first read does not wait.
 */
async function nonEmpty(stream: ReadableStream<FollowedUIChunk>): Promise<ReadableStream<FollowedUIChunk> | undefined> {
  const reader = stream.getReader();
  const first = await reader.read();
  if (first.done) return undefined;
  return new ReadableStream<FollowedUIChunk>(
    {
      start: (controller) => controller.enqueue(first.value),
      async pull(controller) {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 1 },
  );
}

/** The chunks of one kept event: a stream event, or the error a run failed with. */
function chunksOfKept(translator: UIChunkTranslator, kept: KeptRunEvent): Promise<WuweUIMessageChunk[]> {
  if (kept.event.type !== 'run_failed') return translator.chunksOf(kept.event as unknown as LlmAgentStreamEvent);
  const error = (kept.event.error ?? {}) as { name?: string; code?: string };
  const text =
    typeof error.code === 'string' ? `the run failed: ${error.name ?? 'Error'} (${error.code})` : 'the run failed';
  return Promise.resolve(translator.failureChunks(error, text));
}

/** The id and type of each kept event of `runId` (up to `through`, when given). */
async function keptTypes(
  store: RunEventLog,
  runId: string,
  through: number | undefined,
): Promise<{ id: number; type: string }[]> {
  const kept: { id: number; type: string }[] = [];
  for (let after = 0; ;) {
    const events = await store.readRunEvents(runId, { after, limit: 1000 });
    for (const { id, event } of events) if (through === undefined || id <= through) kept.push({ id, type: event.type });
    if (events.length < 1000) return kept;
    after = events[events.length - 1].id;
    if (through !== undefined && after >= through) return kept;
  }
}

/** The kept event id and chunk index of an SSE id this stream issued. */
function cursorOf(runId: string, lastEventId: string): { event: number; chunk: number } {
  const match = /^([0-9]{1,15}):([0-9]{1,6})$/.exec(lastEventId.trim());
  if (match === null)
    throw new FollowRunError(
      'invalid_cursor',
      runId,
      `'${lastEventId.slice(0, 40)}' is not an event id of this stream`,
    );
  return { event: Number(match[1]), chunk: Number(match[2]) };
}
