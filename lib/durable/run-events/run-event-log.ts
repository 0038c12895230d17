import type { JsonObject } from '../../outcome/json-value';
import { RunStoreError } from '../run-store-error';

/** One event a run store keeps for a run: its id (1, 2, 3, ... per run, never reused), the event, when it was kept. */
export interface KeptRunEvent {
  /** Increases by one with every event kept for the run; an event dropped by retention leaves its id unused. */
  readonly id: number;
  /** The event as it was appended (JSON with a `type`). */
  readonly event: JsonObject & { readonly type: string };
  /** When the store kept it (ISO 8601). */
  readonly recordedAt: string;
}

/** Options of {@link RunEventLog.appendRunEvents}. */
export interface AppendRunEventsOptions {
  /**
   * The most events kept for the run: once more are appended, the oldest are dropped (bounded retention; the
   * run's last events, its final one included, are always kept). A whole number >= 1.
   */
  readonly maxPerRun: number;
}

/** Options of {@link RunEventLog.readRunEvents}. */
export interface ReadRunEventsOptions {
  /** Only events with an id greater than this. @default 0: from the oldest kept */
  readonly after?: number;
  /** At most this many events, oldest first. @default 1000 */
  readonly limit?: number;
}

/**
 * The run events a store keeps (the `keepEvents` run option writes them, `followRun()` reads them): a table beside
 * the run record, created when the store opens for writing. Not part of the record, its chain or its schema
 * version: a store without events reads as one whose runs kept none.
 */
export interface RunEventLog {
  /**
   * Appends `events` to run `runId`'s events in one transaction, each with the next id, then drops the oldest
   * beyond `maxPerRun`; returns the id of the last one appended. Followers waiting on the run are woken.
   * @throws {@link wuwe!RunStoreError} `run_not_found`, `record_invalid` for a bad `maxPerRun`, `store_closed`.
   */
  appendRunEvents(runId: string, events: readonly JsonObject[], options: AppendRunEventsOptions): Promise<number>;
  /** The kept events of `runId` after `options.after`, oldest first (none for an unknown run). */
  readRunEvents(runId: string, options?: ReadRunEventsOptions): Promise<readonly KeptRunEvent[]>;
  /**
   * Resolves when events after `after` may have been appended to `runId` (or `signal` aborts): the store's way of
   * waking a follower (a subscription in memory, LISTEN/NOTIFY on PostgreSQL, a poll interval on SQLite). May
   * resolve early: the caller reads again.
   */
  waitForRunEvents(runId: string, after: number, signal?: AbortSignal): Promise<void>;
}

/** The default `limit` of {@link RunEventLog.readRunEvents}. */
export const DEFAULT_RUN_EVENTS_READ_LIMIT = 1000;

/** True when `store` keeps run events (has the {@link RunEventLog} methods). */
export function hasRunEventLog(store: unknown): store is RunEventLog {
  if (typeof store !== 'object' || store === null) return false;
  const log = store as Partial<RunEventLog>;
  return (
    typeof log.appendRunEvents === 'function' &&
    typeof log.readRunEvents === 'function' &&
    typeof log.waitForRunEvents === 'function'
  );
}

/**
 * The checked arguments of an append: the events as JSON text, the retention bound.
 * @throws {@link RunStoreError} `record_invalid`.
 * @internal
 */
export function checkedAppend(
  runId: string,
  events: readonly JsonObject[],
  options: AppendRunEventsOptions,
): { texts: string[]; maxPerRun: number } {
  const maxPerRun = options?.maxPerRun;
  if (!Number.isSafeInteger(maxPerRun) || maxPerRun < 1)
    throw new RunStoreError('record_invalid', `maxPerRun must be a whole number >= 1, got ${String(maxPerRun)}`, {
      runId,
    });
  const texts = events.map((event) => {
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string')
      throw new RunStoreError('record_invalid', 'a run event must be a JSON object with a `type`', { runId });
    return JSON.stringify(event);
  });
  return { texts, maxPerRun };
}

/** The read bounds of {@link RunEventLog.readRunEvents}, checked. @internal */
export function readBoundsOf(options: ReadRunEventsOptions = {}): { after: number; limit: number } {
  const after = options.after ?? 0;
  const limit = options.limit ?? DEFAULT_RUN_EVENTS_READ_LIMIT;
  if (!Number.isSafeInteger(after) || after < 0)
    throw new RunStoreError('record_invalid', `after must be a whole number >= 0, got ${String(after)}`);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RunStoreError('record_invalid', `limit must be a whole number >= 1, got ${String(limit)}`);
  return { after, limit };
}

/** A kept event of a stored row. @internal */
export function keptEventOfRow(row: {
  event_id: number | string;
  event_json: string;
  recorded_at: string;
}): KeptRunEvent {
  return {
    id: Number(row.event_id),
    event: JSON.parse(row.event_json) as KeptRunEvent['event'],
    recordedAt: row.recorded_at,
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. @internal */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
