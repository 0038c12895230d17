import type { JsonObject } from '../../outcome/json-value';
import { RunStoreError } from '../run-store-error';
import {
  AppendRunEventsOptions,
  checkedAppend,
  KeptRunEvent,
  keptEventOfRow,
  readBoundsOf,
  ReadRunEventsOptions,
} from './run-event-log';

interface MemoryRunEventRows {
  lastId: number;
  readonly rows: { event_id: number; event_json: string; recorded_at: string }[];
}

/** The run events of a `MemoryRunStore`: rows per run, followers woken by subscription. @internal */
export class MemoryRunEvents {
  private readonly runs = new Map<string, MemoryRunEventRows>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => string) {}

  append(runId: string, events: readonly JsonObject[], options: AppendRunEventsOptions, runExists: boolean): number {
    const { texts, maxPerRun } = checkedAppend(runId, events, options);
    if (!runExists) throw new RunStoreError('run_not_found', 'No such run', { runId });
    let state = this.runs.get(runId);
    if (state === undefined) {
      state = { lastId: 0, rows: [] };
      this.runs.set(runId, state);
    }
    const recordedAt = this.now();
    for (const text of texts) {
      state.lastId += 1;
      state.rows.push({ event_id: state.lastId, event_json: text, recorded_at: recordedAt });
    }
    if (state.rows.length > maxPerRun) state.rows.splice(0, state.rows.length - maxPerRun);
    this.wake(runId);
    return state.lastId;
  }

  read(runId: string, options?: ReadRunEventsOptions): KeptRunEvent[] {
    const { after, limit } = readBoundsOf(options);
    const rows = this.runs.get(runId)?.rows ?? [];
    return rows
      .filter((row) => row.event_id > after)
      .slice(0, limit)
      .map(keptEventOfRow);
  }

  wait(runId: string, after: number, signal?: AbortSignal): Promise<void> {
    if ((this.runs.get(runId)?.lastId ?? 0) > after || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.waiters.get(runId);
      if (waiters === undefined) this.waiters.set(runId, (waiters = new Set()));
      const done = (): void => {
        waiters.delete(done);
        if (waiters.size === 0) this.waiters.delete(runId);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Wakes every follower (the store closed). */
  wakeAll(): void {
    for (const runId of [...this.waiters.keys()]) this.wake(runId);
  }

  private wake(runId: string): void {
    for (const done of [...(this.waiters.get(runId) ?? [])]) done();
  }
}
