import { appendFileSync } from 'node:fs';
import { hasErrorMarker } from '../errors/error-marker';
import { WuweError } from '../errors/wuwe-error';
import { LlmAgentEvent } from './runner-events';

/** One runner event with the time it was seen. */
export interface JournalEntry {
  /** Milliseconds since the epoch when `onEvent` received the event. */
  readonly atMs: number;
  readonly event: LlmAgentEvent;
}

/** Options of {@link RunEventJournal}. */
export interface RunEventJournalOptions {
  /**
   * Appends each entry as one JSON line to this file as it happens (a crash keeps what was seen). @default none: kept
   * in memory only
   */
  readonly file?: string;
  /** The time source. @default Date.now */
  readonly now?: () => number;
}

const RUN_EVENT_JOURNAL_ERROR_MARKER = Symbol.for('wuwe.error.RunEventJournalError');

/** A journal file that is not one JSON entry per line (`invalid_journal`). */
export class RunEventJournalError extends WuweError<'invalid_journal'> {
  private readonly [RUN_EVENT_JOURNAL_ERROR_MARKER] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_journal', message, options);
  }

  /** True when `value` is a RunEventJournalError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is RunEventJournalError {
    return hasErrorMarker(value, RUN_EVENT_JOURNAL_ERROR_MARKER);
  }
}

/**
 * Records a run's `onEvent` stream with timestamps. The durable record keeps outcomes, approvals and
 * projections, not the timing of attempts, backoff, heartbeats, timeouts and late results: pass
 * `journal.onEvent` as the run's `onEvent` (or `wuwe resume --events <file>`), and the HTML timeline
 * (`wuwe export --html <file> --events <journal>`) draws those lanes from it.
 */
export class RunEventJournal {
  private readonly recorded: JournalEntry[] = [];
  private readonly now: () => number;

  constructor(private readonly options: RunEventJournalOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** The listener to pass as `onEvent` (bound: pass it as is). */
  readonly onEvent = (event: LlmAgentEvent): void => {
    const entry: JournalEntry = { atMs: this.now(), event };
    this.recorded.push(entry);
    if (this.options.file !== undefined) appendFileSync(this.options.file, `${JSON.stringify(entry)}\n`);
  };

  /** Every entry so far, in order. */
  get entries(): readonly JournalEntry[] {
    return this.recorded;
  }

  /** The entries as JSON lines (the file format). */
  toJsonLines(): string {
    return this.recorded.map((entry) => `${JSON.stringify(entry)}\n`).join('');
  }

  /**
   * Reads JSON lines written by a journal; blank lines are skipped.
   * @throws RunEventJournalError `invalid_journal` naming the first line that is not an entry.
   */
  static parse(text: string): JournalEntry[] {
    const entries: JournalEntry[] = [];
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new RunEventJournalError(`line ${index + 1} of the event journal is not JSON`, { cause: error });
      }
      const entry = value as Partial<JournalEntry>;
      if (
        typeof entry !== 'object' ||
        entry === null ||
        typeof entry.atMs !== 'number' ||
        !Number.isFinite(entry.atMs) ||
        typeof entry.event?.type !== 'string'
      )
        throw new RunEventJournalError(
          `line ${index + 1} of the event journal is not an entry {"atMs":<number>,"event":{"type":...}}`,
        );
      entries.push(entry as JournalEntry);
    });
    return entries;
  }
}
