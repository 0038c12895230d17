import { messageOf } from '../../errors/message-of';
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
   * beyond `maxPerRun`; returns the id of the last one appended. Followers waiting on the run are woken. Each event
   * must serialize (`JSON.stringify`) to the text of a JSON object with a string `type`, the form it is read back in;
   * when one does not, nothing of the batch is written.
   * @throws {@link wuwe!RunStoreError} `run_not_found`, `record_invalid` (an event that does not serialize to such
   *   a text, or a bad `maxPerRun`), `store_closed`.
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
 * The checked arguments of an append: the events as JSON text, the retention bound. Each text is one a read gives
 * back as a kept event (a JSON object with a string `type`), so an event appended never breaks the run's log.
 * @throws {@link RunStoreError} `record_invalid`, before anything is written.
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
  if (!Array.isArray(events))
    throw new RunStoreError('record_invalid', 'the run events to append must be an array', { runId });
  return { texts: events.map((event: unknown, index) => eventText(runId, event, index)), maxPerRun };
}

/** The JSON text of the event at `index` of an append, read back to check it is a kept event's. */
function eventText(runId: string, event: unknown, index: number): string {
  const refused = (why: string, cause?: unknown): RunStoreError =>
    new RunStoreError('record_invalid', `run event ${index} cannot be kept: ${why}`, {
      runId,
      ...(cause === undefined ? {} : { cause }),
    });
  if (typeof event !== 'object' || event === null) throw refused('it is not a JSON object with a `type`');
  let text: unknown;
  try {
    text = JSON.stringify(event);
  } catch (error) {
    throw refused(`it does not serialize to JSON (${messageOf(error)})`, error);
  }
  if (typeof text !== 'string') throw refused('it serializes to no JSON text');
  if (!isKeptEventJson(JSON.parse(text))) throw refused('its JSON text is not a JSON object with a string `type`');
  return text;
}

/** True for the JSON value of a kept event: an object with a string `type`. */
function isKeptEventJson(value: unknown): value is KeptRunEvent['event'] {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { type?: unknown }).type === 'string'
  );
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

/**
 * A kept event of a stored row.
 * @throws {@link RunStoreError} `record_invalid` for a row whose text is not a JSON object with a string `type`
 *   (written outside the store).
 * @internal
 */
export function keptEventOfRow(row: {
  event_id: number | string;
  event_json: string;
  recorded_at: string;
}): KeptRunEvent {
  const id = Number(row.event_id);
  let event: unknown;
  try {
    event = JSON.parse(row.event_json);
  } catch {
    event = undefined;
  }
  if (!isKeptEventJson(event))
    throw new RunStoreError(
      'record_invalid',
      `the stored run event ${id} is not the JSON text of an object with a string \`type\``,
    );
  return { id, event, recordedAt: row.recorded_at };
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
