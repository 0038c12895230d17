import type { RunStore } from '../durable/run-store';
import { RunStoreError } from '../durable/run-store-error';
import { FINAL_RUN_EVENT_TYPES } from '../durable/run-events/follow-run';
import { readFromCursor } from '../durable/run-events/follow-cursor';
import { FollowRunError } from '../durable/run-events/follow-run-error';
import { hasRunEventLog, RunEventLog } from '../durable/run-events/run-event-log';
import { UIStreamError } from './ui-stream-error';

/**
 * Where a follower is in a followed stream: the kept event, and the index of the last chunk of it the follower has
 * (`undefined`: all of them). @internal
 */
export interface ChunkCursor {
  readonly event: number;
  readonly chunk?: number;
}

/** Where a followed stream starts: after which kept event, and the chunks already delivered. @internal */
export interface FollowPlan {
  readonly after: number;
  readonly delivered?: ChunkCursor;
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
 * Where following `runId` starts, or `undefined` when there is nothing to follow: no cursor, and the run's kept
 * events end with a final event (or there are none) and the run is not running (a host answers `204`). With a
 * cursor, whether the run ended. The cursor's event id is checked against the ids the store has issued for the run.
 * @throws {@link FollowRunError} `no_event_log`, `invalid_cursor`; {@link RunStoreError} `run_not_found`.
 * @internal
 */
export async function planFollow(
  store: RunStore,
  runId: string,
  delivered: ChunkCursor | undefined,
): Promise<FollowPlan | undefined> {
  if (!hasRunEventLog(store))
    throw new FollowRunError('no_event_log', runId, 'the store keeps no run events (it is not a RunEventLog)');
  if (delivered === undefined) return planReplay(store, runId);
  const named =
    delivered.chunk === undefined ? `afterEvent ${delivered.event}` : `'${delivered.event}:${delivered.chunk}'`;
  const {
    events: [next],
  } = await readFromCursor(store, runId, delivered.event, 1, named);
  const kept = await keptTypes(store, runId, delivered.event);
  const before = kept.filter((event) => FINAL_RUN_EVENT_TYPES.has(event.type) && event.id < delivered.event).at(-1);
  // The run's status is read only when no event follows the cursor's: with one, there is more to follow anyway.
  const ended = next === undefined && (await hasEnded(store, runId, delivered.event));
  return { after: before?.id ?? 0, delivered, ended };
}

/** The plan without a cursor: the run's current stream from its start, or nothing when its last one ended. */
async function planReplay(store: RunStore & RunEventLog, runId: string): Promise<FollowPlan | undefined> {
  const kept = await keptTypes(store, runId, undefined);
  const last = kept.at(-1);
  if (last === undefined) {
    // Nothing kept: a run that cannot stream again has nothing to follow.
    const record = await store.loadRun(runId);
    if (record === undefined) throw new RunStoreError('run_not_found', 'No such run', { runId });
    if (STREAMING_STATUSES.has(record.status)) return { after: 0 };
    return (await store.readRunEvents(runId, { after: 0, limit: 1 })).length === 0 ? undefined : { after: 0 };
  }
  if (FINAL_RUN_EVENT_TYPES.has(last.type)) {
    const record = await store.loadRun(runId);
    if (record?.status === 'running') return { after: last.id };
    // A stream kept since the first read (the run was resumed meanwhile) is the current one.
    const later = await store.readRunEvents(runId, { after: last.id, limit: 1 });
    return later.length === 0 ? undefined : { after: last.id };
  }
  return { after: kept.filter((event) => FINAL_RUN_EVENT_TYPES.has(event.type)).at(-1)?.id ?? 0 };
}

/**
 * True when run `runId` can have no next stream (it is neither running nor waiting for approval) and still has no
 * event after `after` once its status was read: an event kept between the caller's read and the status is seen.
 * @throws {@link RunStoreError} `run_not_found`.
 */
async function hasEnded(store: RunStore & RunEventLog, runId: string, after: number): Promise<boolean> {
  const record = await store.loadRun(runId);
  if (record === undefined) throw new RunStoreError('run_not_found', 'No such run', { runId });
  if (STREAMING_STATUSES.has(record.status)) return false;
  return (await store.readRunEvents(runId, { after, limit: 1 })).length === 0;
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

/**
 * The cursor a follower gave (`lastEventId` or `afterEvent`), checked for its form; `undefined` for none.
 * @throws {@link FollowRunError} `invalid_cursor`; {@link UIStreamError} `invalid_options` for both at once.
 * @internal
 */
export function deliveredOf(
  runId: string,
  options: { readonly lastEventId?: unknown; readonly afterEvent?: unknown },
): ChunkCursor | undefined {
  const { lastEventId, afterEvent } = options;
  const hasLastEventId = lastEventId !== undefined && lastEventId !== null;
  if (afterEvent === undefined) return hasLastEventId ? cursorOf(runId, lastEventId) : undefined;
  if (hasLastEventId)
    throw new UIStreamError('invalid_options', 'give `lastEventId` or `afterEvent`, not both', { runId });
  if (typeof afterEvent !== 'number' || !Number.isSafeInteger(afterEvent) || afterEvent < 0)
    throw new FollowRunError(
      'invalid_cursor',
      runId,
      `afterEvent must be a whole number >= 0, got ${typeof afterEvent === 'number' ? String(afterEvent) : kindOf(afterEvent)}`,
    );
  return { event: afterEvent };
}

/**
 * The kept event id and chunk index of an SSE id in the form this stream issues (`<event id>:<chunk index>`, no
 * leading zeros; `'0:0'` for "before the first kept event"). Surrounding white space is ignored.
 * @throws {@link FollowRunError} `invalid_cursor` for anything else, a non-string included.
 */
function cursorOf(runId: string, lastEventId: unknown): ChunkCursor {
  if (typeof lastEventId !== 'string')
    throw new FollowRunError(
      'invalid_cursor',
      runId,
      `lastEventId must be a string (an SSE event id of this stream), got ${kindOf(lastEventId)}`,
    );
  const match = /^(0|[1-9][0-9]{0,14}):(0|[1-9][0-9]{0,5})$/.exec(lastEventId.trim());
  if (match === null || (match[1] === '0' && match[2] !== '0'))
    throw new FollowRunError(
      'invalid_cursor',
      runId,
      `'${lastEventId.slice(0, 40)}' is not an event id of this stream`,
    );
  return { event: Number(match[1]), chunk: Number(match[2]) };
}

/** What a non-string cursor is, for a message (never its text: a hostile value's `toString` is not called). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}
