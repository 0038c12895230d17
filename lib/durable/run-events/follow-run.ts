import type { RunStore } from '../run-store';
import { RunStoreError } from '../run-store-error';
import { readFromCursor } from './follow-cursor';
import { FollowRunError } from './follow-run-error';
import { hasRunEventLog, KeptRunEvent, readBoundsOf } from './run-event-log';

/** The `type`s of the events a run's stream ends with: its result, or the error it failed with. */
export const FINAL_RUN_EVENT_TYPES: ReadonlySet<string> = new Set(['run_finished', 'run_failed']);

/** The statuses of a run that can have no next stream: it cannot be resumed. */
const ENDED_FOR_GOOD: ReadonlySet<string> = new Set(['completed', 'cancelled']);

/** Options of {@link followRun}. */
export interface FollowRunOptions {
  /** Yield only events after this id (the last one the follower has). @default 0: from the oldest kept */
  readonly after?: number;
  /** Ends the iteration (without an error) when it aborts. */
  readonly signal?: AbortSignal;
  /** How many events one read takes. @default 256 */
  readonly batchSize?: number;
  /**
   * While waiting for events, how often the run's status is read again, so a follower ends once the run ended for
   * good without a final event (a run waiting for approval cancelled from another process). @default 5000
   */
  readonly statusCheckMs?: number;
}

/**
 * Follows a run whose events are kept (`keepEvents`): yields the kept events after `options.after`, in id order,
 * then waits for new ones (memory: a subscription; PostgreSQL: LISTEN/NOTIFY; SQLite: a poll every
 * `eventPollIntervalMs`) and yields them as they are appended, until the run's final event (`run_finished` or
 * `run_failed`) has been yielded, or `signal` aborts. Each event once, none skipped: a follower that reconnects with
 * the id of the last event it got misses nothing and sees nothing twice. A run suspended for approval ends its
 * stream with `run_finished` (`awaiting_approval`); follow again after that id to see its resumed stream. After the
 * final event of a run that ended for good (`completed`, `cancelled`: it cannot be resumed), or from 0 on such a
 * run with no kept events, the iteration ends at once: no event will come.
 *
 * `after` is checked against the store when the iteration starts: an id past the last one the store has issued for
 * the run was never issued, and is refused (`invalid_cursor`) instead of waited for.
 *
 * Pulled: the store is read only when the consumer asks for more, `batchSize` events at a time.
 *
 * @throws {@link FollowRunError} `no_event_log`, `events_dropped` (retention dropped events after `after`),
 *   `invalid_cursor` (not a whole number >= 0, or past the run's last event id); {@link RunStoreError}
 *   `run_not_found` for a run the store does not have.
 */
export async function* followRun(
  store: RunStore,
  runId: string,
  options: FollowRunOptions = {},
): AsyncGenerator<KeptRunEvent, void, undefined> {
  if (!hasRunEventLog(store))
    throw new FollowRunError('no_event_log', runId, 'the store keeps no run events (it is not a RunEventLog)');
  let cursor = options.after ?? 0;
  if (!Number.isSafeInteger(cursor) || cursor < 0)
    throw new FollowRunError('invalid_cursor', runId, `after must be a whole number >= 0, got ${String(cursor)}`);
  const { limit } = readBoundsOf({ limit: options.batchSize ?? 256 });
  const { signal } = options;
  const statusCheckMs = options.statusCheckMs ?? 5000;
  if (!(typeof statusCheckMs === 'number' && statusCheckMs > 0 && statusCheckMs <= 2 ** 31 - 1))
    throw new RunStoreError(
      'record_invalid',
      `statusCheckMs must be a positive number of milliseconds, got ${String(statusCheckMs)}`,
      { runId },
    );
  const aborted = (): boolean => signal?.aborted === true;
  // The status is read before the events: a run that ended for good gets no event after that read.
  const record = await store.exportRun(runId);
  if (record === undefined) throw new RunStoreError('run_not_found', 'No such run', { runId });
  const first = await readFromCursor(store, runId, cursor, limit, `after ${cursor}`);
  const atEnd = cursor === 0 || (first.at !== undefined && FINAL_RUN_EVENT_TYPES.has(first.at.event.type));
  if (first.events.length === 0 && atEnd && ENDED_FOR_GOOD.has(record.status)) return;
  let read: readonly KeptRunEvent[] | undefined = first.events;
  let statusReadAt = Date.now();
  while (!aborted()) {
    const events = read ?? (await store.readRunEvents(runId, { after: cursor, limit }));
    read = undefined;
    if (events.length > 0 && cursor > 0 && events[0].id !== cursor + 1)
      throw new FollowRunError(
        'events_dropped',
        runId,
        `the events of run '${runId}' after ${cursor} up to ${events[0].id - 1} were dropped (retention): following on would leave a gap`,
      );
    for (const kept of events) {
      if (aborted()) return;
      cursor = kept.id;
      yield kept;
      if (FINAL_RUN_EVENT_TYPES.has(kept.event.type)) return;
    }
    if (events.length >= limit) continue;
    await store.waitForRunEvents(runId, cursor, waitSignal(signal, statusCheckMs));
    if (aborted() || Date.now() - statusReadAt < statusCheckMs) continue;
    // At most every statusCheckMs: a run that ended for good without a final event (cancelled while it waited for
    // approval) ends the follow. The status is read before the events, as at the start.
    statusReadAt = Date.now();
    if (!ENDED_FOR_GOOD.has((await store.exportRun(runId))?.status ?? 'cancelled')) continue;
    read = await store.readRunEvents(runId, { after: cursor, limit });
    if (read.length === 0) return;
  }
}

/** The signal a wait takes: the follower's, and a timeout after which the status is read again. */
function waitSignal(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}
