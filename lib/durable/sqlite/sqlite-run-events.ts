import type BetterSqlite3 from 'better-sqlite3';
import type { JsonObject } from '../../outcome/json-value';
import { RunStoreError } from '../run-store-error';
import {
  AppendRunEventsOptions,
  checkedAppend,
  KeptRunEvent,
  keptEventOfRow,
  readBoundsOf,
  ReadRunEventsOptions,
  sleepUnlessAborted,
} from '../run-events/run-event-log';
import { SqliteRunSession } from './sqlite-run-session';

/** The table of kept run events, created when the store opens for writing (not part of the record's schema). */
export const SQLITE_RUN_EVENTS_TABLE = `
CREATE TABLE IF NOT EXISTS wuwe_run_events (
  run_id TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  event_json TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (run_id, event_id)
)`;

const SELECT_LAST_ID = 'SELECT COALESCE(MAX(event_id), 0) AS last_id FROM wuwe_run_events WHERE run_id = ?';
const INSERT_EVENT = 'INSERT INTO wuwe_run_events (run_id, event_id, event_json, recorded_at) VALUES (?, ?, ?, ?)';
const DROP_OLDEST = 'DELETE FROM wuwe_run_events WHERE run_id = ? AND event_id <= ?';
const SELECT_AFTER =
  'SELECT event_id, event_json, recorded_at FROM wuwe_run_events WHERE run_id = ? AND event_id > ? ORDER BY event_id LIMIT ?';
const HAS_TABLE = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wuwe_run_events'";

/** The default poll interval of a SQLite follower (`SqliteRunStoreOptions.eventPollIntervalMs`). */
export const DEFAULT_SQLITE_EVENT_POLL_INTERVAL_MS = 100;

/**
 * The run events of a `SqliteRunStore`. Appends run in an immediate transaction (ids stay consecutive across the
 * processes sharing the file); a follower polls, SQLite having no notification across processes. @internal
 */
export class SqliteRunEvents {
  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly session: SqliteRunSession,
    private readonly pollIntervalMs: number,
  ) {}

  /** Creates the table (a store opened for writing). */
  static createTable(db: BetterSqlite3.Database): void {
    db.exec(SQLITE_RUN_EVENTS_TABLE);
  }

  append(runId: string, events: readonly JsonObject[], options: AppendRunEventsOptions): number {
    const { texts, maxPerRun } = checkedAppend(runId, events, options);
    return this.session.transaction({ runId }, () => {
      if (!this.session.statements.exists('runExists', runId))
        throw new RunStoreError('run_not_found', 'No such run', { runId });
      let lastId = (this.db.prepare(SELECT_LAST_ID).get(runId) as { last_id: number }).last_id;
      const recordedAt = this.session.now();
      const insert = this.db.prepare(INSERT_EVENT);
      for (const text of texts) insert.run(runId, (lastId += 1), text, recordedAt);
      this.db.prepare(DROP_OLDEST).run(runId, lastId - maxPerRun);
      return lastId;
    });
  }

  read(runId: string, options?: ReadRunEventsOptions): KeptRunEvent[] {
    const { after, limit } = readBoundsOf(options);
    return this.session.read({ runId }, () => {
      // A store opened read-only on a file no writer opened since the table exists: no events.
      if (this.db.prepare(HAS_TABLE).get() === undefined) return [];
      const rows = this.db.prepare(SELECT_AFTER).all(runId, after, limit) as {
        event_id: number;
        event_json: string;
        recorded_at: string;
      }[];
      return rows.map(keptEventOfRow);
    });
  }

  /** Waits one poll interval (another process may append: SQLite tells no one). */
  wait(signal?: AbortSignal): Promise<void> {
    return sleepUnlessAborted(this.pollIntervalMs, signal);
  }
}
