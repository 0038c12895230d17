import type { Pool, PoolClient } from 'pg';
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
import { mapPostgresError } from './postgres-errors';
import { PostgresRunSession } from './postgres-run-session';

/** The channel appends notify on; the payload is `<schema>:<run id>`. */
export const POSTGRES_RUN_EVENTS_CHANNEL = 'wuwe_run_events';

/**
 * How long a follower waits for a notification before it reads again anyway (a notification lost with a dropped
 * listening connection costs at most this).
 */
const RECHECK_MS = 2_000;

/** The table of kept run events, created when the store opens for writing (not part of the record's schema). */
export function postgresRunEventsTable(quoted: string): string {
  return `CREATE TABLE IF NOT EXISTS ${quoted}.wuwe_run_events (
  run_id TEXT NOT NULL,
  event_id BIGINT NOT NULL,
  event_json TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (run_id, event_id)
)`;
}

/**
 * The run events of a `PostgresRunStore`. An append locks the run's row (ids stay consecutive across workers) and
 * notifies `wuwe_run_events` in its transaction, so followers hear of it once it commits; followers share one
 * listening connection per store, taken from the pool on the first wait. @internal
 */
export class PostgresRunEvents {
  private listener: Promise<PoolClient> | undefined;
  private readonly waiters = new Map<string, Set<() => void>>();
  private closed = false;

  constructor(
    private readonly session: PostgresRunSession,
    private readonly pool: Pool,
    private readonly schemaName: string,
    private readonly quoted: string,
  ) {}

  async append(runId: string, events: readonly JsonObject[], options: AppendRunEventsOptions): Promise<number> {
    const { texts, maxPerRun } = checkedAppend(runId, events, options);
    const table = `${this.quoted}.wuwe_run_events`;
    return this.session.transaction({ runId }, async (client) => {
      const run = await client.query(`SELECT 1 FROM ${this.quoted}.wuwe_runs WHERE run_id = $1 FOR UPDATE`, [runId]);
      if (run.rowCount === 0) throw new RunStoreError('run_not_found', 'No such run', { runId });
      const last = await client.query<{ last_id: string }>(
        `SELECT COALESCE(MAX(event_id), 0) AS last_id FROM ${table} WHERE run_id = $1`,
        [runId],
      );
      let lastId = Number(last.rows[0].last_id);
      const recordedAt = this.session.now();
      for (const text of texts)
        await client.query(`INSERT INTO ${table} (run_id, event_id, event_json, recorded_at) VALUES ($1, $2, $3, $4)`, [
          runId,
          (lastId += 1),
          text,
          recordedAt,
        ]);
      await client.query(`DELETE FROM ${table} WHERE run_id = $1 AND event_id <= $2`, [runId, lastId - maxPerRun]);
      await client.query('SELECT pg_notify($1, $2)', [POSTGRES_RUN_EVENTS_CHANNEL, `${this.schemaName}:${runId}`]);
      return lastId;
    });
  }

  async read(runId: string, options?: ReadRunEventsOptions): Promise<KeptRunEvent[]> {
    const { after, limit } = readBoundsOf(options);
    return this.session.read({ runId }, async (client) => {
      const exists = await client.query('SELECT to_regclass($1) AS name', [`${this.quoted}.wuwe_run_events`]);
      if ((exists.rows[0] as { name: unknown }).name === null) return [];
      const rows = await client.query<{ event_id: string; event_json: string; recorded_at: string }>(
        `SELECT event_id, event_json, recorded_at FROM ${this.quoted}.wuwe_run_events
          WHERE run_id = $1 AND event_id > $2 ORDER BY event_id LIMIT $3`,
        [runId, after, limit],
      );
      return rows.rows.map(keptEventOfRow);
    });
  }

  /**
   * Resolves on the next notification for `runId` (LISTEN), after {@link RECHECK_MS} at the latest, or when `signal`
   * aborts. The caller reads again after it, so a notification sent before the wait began is not missed: it reads,
   * then waits, then reads.
   */
  async wait(runId: string, after: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
    if (signal?.aborted === true) return;
    let waiters = this.waiters.get(runId);
    if (waiters === undefined) this.waiters.set(runId, (waiters = new Set()));
    const controller = new AbortController();
    const done = (): void => controller.abort();
    waiters.add(done);
    try {
      await this.listen();
      // Appended between the caller's read and the LISTEN: no notification will come for it.
      const appended = await this.read(runId, { after, limit: 1 });
      if (appended.length > 0) return;
      await sleepUnlessAborted(
        RECHECK_MS,
        signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]),
      );
    } finally {
      waiters.delete(done);
      if (waiters.size === 0) this.waiters.delete(runId);
    }
  }

  /** Releases the listening connection and wakes every follower. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiters of this.waiters.values()) for (const done of waiters) done();
    const listener = this.listener;
    this.listener = undefined;
    if (listener === undefined) return;
    const client = await listener.catch(() => undefined);
    if (client === undefined) return;
    await client.query(`UNLISTEN ${POSTGRES_RUN_EVENTS_CHANNEL}`).catch(() => undefined);
    client.release();
  }

  private listen(): Promise<PoolClient> {
    if (this.listener !== undefined) return this.listener;
    const listening = (async () => {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw mapPostgresError(error, {});
      }
      client.on('notification', (message) => {
        if (message.channel !== POSTGRES_RUN_EVENTS_CHANNEL || message.payload === undefined) return;
        const prefix = `${this.schemaName}:`;
        if (!message.payload.startsWith(prefix)) return;
        for (const done of [...(this.waiters.get(message.payload.slice(prefix.length)) ?? [])]) done();
      });
      client.on('error', () => {
        // A lost listening connection: the next wait takes another one (followers recheck meanwhile).
        if (this.listener === listening) this.listener = undefined;
        client.release(true);
      });
      try {
        await client.query(`LISTEN ${POSTGRES_RUN_EVENTS_CHANNEL}`);
      } catch (error) {
        client.release(true);
        throw mapPostgresError(error, {});
      }
      return client;
    })();
    this.listener = listening;
    listening.catch(() => {
      if (this.listener === listening) this.listener = undefined;
    });
    return listening;
  }
}
