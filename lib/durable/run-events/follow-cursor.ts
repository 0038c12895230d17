import type { RunStore } from '../run-store';
import { RunStoreError } from '../run-store-error';
import { FollowRunError } from './follow-run-error';
import type { KeptRunEvent, RunEventLog } from './run-event-log';

/** The kept events a follower reads first from its cursor, as the store had them when it was asked. @internal */
export interface KeptFromCursor {
  /** The kept event whose id is the cursor: none for cursor 0, or when retention dropped it. */
  readonly at?: KeptRunEvent;
  /** The kept events after the cursor, oldest first, at most `limit`. */
  readonly events: readonly KeptRunEvent[];
}

/**
 * The first kept events of run `runId` after cursor `after` (an event id the follower has), and the event at the
 * cursor, in one read, with the cursor checked against the ids the store has issued for the run at the time of the
 * call. The run's last event is always kept (retention drops the oldest), so an id the store issued has a kept
 * event at it or after it: a cursor with none was never issued and is refused, before anything waits for events
 * that would have to pass it.
 *
 * @param cursor - the cursor as the follower gave it, for the error message.
 * @throws {@link FollowRunError} `invalid_cursor` for a cursor past the run's last event id;
 *   {@link RunStoreError} `run_not_found` (instead) when the store does not have the run.
 * @internal
 */
export async function readFromCursor(
  store: RunStore & RunEventLog,
  runId: string,
  after: number,
  limit: number,
  cursor: string,
): Promise<KeptFromCursor> {
  if (after === 0) return { events: await store.readRunEvents(runId, { after: 0, limit }) };
  const read = await store.readRunEvents(runId, {
    after: after - 1,
    limit: Math.min(limit + 1, Number.MAX_SAFE_INTEGER),
  });
  if (read.length === 0) {
    if ((await store.exportRun(runId)) === undefined)
      throw new RunStoreError('run_not_found', 'No such run', { runId });
    throw new FollowRunError(
      'invalid_cursor',
      runId,
      `${cursor} is past the last event id the store issued for run '${runId}': the store never issued it`,
    );
  }
  const at = read[0].id === after ? read[0] : undefined;
  const events = (at === undefined ? read : read.slice(1)).slice(0, limit);
  return at === undefined ? { events } : { at, events };
}
