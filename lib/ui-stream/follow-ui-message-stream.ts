import type { RunStore } from '../durable/run-store';
import { followRun } from '../durable/run-events/follow-run';
import { FollowRunError } from '../durable/run-events/follow-run-error';
import type { KeptRunEvent } from '../durable/run-events/run-event-log';
import type { LlmAgentStreamEvent } from '../runner/stream/stream-events';
import { ChunkCursor, deliveredOf, planFollow } from './follow-plan';
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
   * first stream, finished or not). Any other value must be an id this stream issued: one naming an event past the
   * last one the store issued for the run, or a chunk that event never had, is refused (`invalid_cursor`).
   */
  readonly lastEventId?: string | null;
  /**
   * Instead of `lastEventId`: the stream starts with the kept event after this one, with all of its chunks (as after
   * the last chunk of kept event `afterEvent`): what a host that knows a kept event id (from `readRunEvents`), and
   * not the SSE id of its last chunk, starts a stream with. An event id the store issued for the run, or 0 (from the
   * first kept event); one past the run's last event id is refused (`invalid_cursor`), and so is giving both options
   * (`invalid_options`).
   */
  readonly afterEvent?: number;
  /** Ends the stream when it aborts. */
  readonly signal?: AbortSignal;
}

/**
 * The UI message stream of a run followed through its store (events kept with `keepEvents`, see `followRun()`):
 * the chunks `toUIMessageStream()` tells for the same events, each with an id to resume after. Resuming with the
 * last id the client got (`lastEventId`) misses no chunk and repeats none; the run's current stream is replayed
 * from its start otherwise. Ends after the stream's final event (the run's result, or its error). A client that has
 * all of the last stream of a run that ended (completed, stopped, failed, cancelled) gets `undefined`: nothing to
 * follow; for a run waiting for approval or running, the stream goes on with the run's next stream.
 *
 * The cursor is checked before the stream starts, against what the store holds: the kept events up to the cursor's
 * are read and translated again (they are the current stream's, so at most one stream's worth), which tells how
 * many chunks the cursor's event has.
 *
 * @throws {@link durable!FollowRunError} (`no_event_log`, `invalid_cursor`, `events_dropped`),
 *   {@link wuwe!RunStoreError} `run_not_found` and {@link UIStreamError} `invalid_options`, before the stream
 *   starts.
 */
export async function followUIMessageStream(
  store: RunStore,
  runId: string,
  options: FollowUIMessageStreamOptions = {},
): Promise<ReadableStream<FollowedUIChunk> | undefined> {
  if (options.approvals !== undefined) keyOfSigning(options.approvals);
  const plan = await planFollow(store, runId, deliveredOf(runId, options));
  if (plan === undefined) return undefined;
  const { lastEventId: _lastEventId, afterEvent: _afterEvent, signal, ...translation } = options;
  const follow = (after: number): AsyncGenerator<KeptRunEvent, void, undefined> =>
    followRun(store, runId, { after, ...(signal === undefined ? {} : { signal }) });
  let translator = new UIChunkTranslator(runId, translation);
  let events = follow(plan.after);
  const { delivered } = plan;
  let rolled: Rolled = { lastId: plan.after, pending: [] };
  if (delivered !== undefined && delivered.event > 0)
    rolled = await rollTo(runId, delivered, events, translator).catch(async (error: unknown) => {
      await events.return(undefined);
      throw error;
    });
  let { lastId, pending } = rolled;
  if (plan.ended === true) {
    // Nothing was kept after the cursor's event and the run has no next stream: only the rest of that event.
    await events.return(undefined);
    return pending.length === 0 ? undefined : streamOf(pending);
  }
  let told = false;
  let followedOn = false;
  return new ReadableStream<FollowedUIChunk>(
    {
      async pull(controller) {
        if (pending.length > 0) {
          for (const entry of pending) controller.enqueue(entry);
          pending = [];
          told = true;
          return;
        }
        for (;;) {
          const next = await events.next();
          if (next.done === true) {
            // The client had the whole of that stream (its final event included): follow the run's next one, once.
            const followOn = !told && !followedOn && delivered !== undefined && lastId <= delivered.event;
            if (followOn && signal?.aborted !== true) {
              followedOn = true;
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
          if (chunks.length === 0) continue;
          chunks.forEach((chunk, index) => controller.enqueue({ id: `${id}:${index}`, chunk }));
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
}

/** Where a followed stream is once rolled to the cursor: its last event read, the chunks still to tell of it. */
interface Rolled {
  readonly lastId: number;
  readonly pending: FollowedUIChunk[];
}

/**
 * Reads and translates the kept events up to the cursor's (the client has their chunks), so the stream goes on from
 * the cursor with the translator where it was; answers the chunks of that event after the cursor's. Each of those
 * events is kept (`planFollow` found one at or after the cursor, and there is no final event between `after` and
 * it): no read waits.
 * @throws {@link FollowRunError} `invalid_cursor` for a chunk index the cursor's event does not have;
 *   `events_dropped` when retention dropped the events right after the cursor.
 */
async function rollTo(
  runId: string,
  delivered: ChunkCursor,
  events: AsyncGenerator<KeptRunEvent, void, undefined>,
  translator: UIChunkTranslator,
): Promise<Rolled> {
  let lastId = 0;
  for (let first = true; ; first = false) {
    const next = await events.next();
    // Only when the follower's signal aborted: the stream ends at its first read.
    if (next.done === true) return { lastId, pending: [] };
    const kept = next.value;
    lastId = kept.id;
    if (first && kept.id > delivered.event + 1)
      throw new FollowRunError(
        'events_dropped',
        runId,
        `the events of run '${runId}' after ${delivered.event} up to ${kept.id - 1} were dropped (retention): following on would leave a gap`,
      );
    const chunks = await chunksOfKept(translator, kept);
    if (kept.id < delivered.event) continue;
    // The cursor's own event, or (retention dropped it) the one right after it, whose chunks are all new.
    const from = kept.id > delivered.event ? 0 : delivered.chunk === undefined ? chunks.length : delivered.chunk + 1;
    if (kept.id === delivered.event && delivered.chunk !== undefined && delivered.chunk >= chunks.length)
      throw new FollowRunError(
        'invalid_cursor',
        runId,
        `'${delivered.event}:${delivered.chunk}' names chunk ${delivered.chunk} of event ${delivered.event}, which has ${chunks.length}: the stream never issued it`,
      );
    const pending = chunks.slice(from).map((chunk, index) => ({ id: `${kept.id}:${from + index}`, chunk }));
    return { lastId, pending };
  }
}

/** A stream of `chunks`, then its end. */
function streamOf(chunks: readonly FollowedUIChunk[]): ReadableStream<FollowedUIChunk> {
  return new ReadableStream<FollowedUIChunk>({
    start(controller) {
      for (const entry of chunks) controller.enqueue(entry);
      controller.close();
    },
  });
}

/** The chunks of one kept event: a stream event, or the error a run failed with. */
function chunksOfKept(translator: UIChunkTranslator, kept: KeptRunEvent): Promise<WuweUIMessageChunk[]> {
  if (kept.event.type !== 'run_failed') return translator.chunksOf(kept.event as unknown as LlmAgentStreamEvent);
  const error = (kept.event.error ?? {}) as { name?: string; code?: string };
  const text =
    typeof error.code === 'string' ? `the run failed: ${error.name ?? 'Error'} (${error.code})` : 'the run failed';
  return Promise.resolve(translator.failureChunks(error, text));
}
