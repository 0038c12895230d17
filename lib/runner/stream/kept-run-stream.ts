import type { JsonObject } from '../../outcome/json-value';
import { RunStoreError } from '../../durable/run-store-error';
import { WuweError } from '../../errors/wuwe-error';
import { messageOf } from '../../errors/message-of';
import type { LlmAgentRunResult } from '../run-result';
import type { LlmAgentRunStream, LlmAgentStreamEvent } from './stream-events';
import type { ResolvedKeepRunEvents } from './keep-events-policy';

/**
 * A run stream whose every event is appended to the store before it is handed on (see `KeepRunEventsPolicy`); an
 * error that ends the run is kept as `run_failed`. Pulled like the stream it wraps: the run's own buffer bound holds.
 * @internal
 */
export class KeptRunStream implements LlmAgentRunStream {
  readonly runId: string;
  /** Events of a run not created yet, written with the next append (see `append`). */
  private held: JsonObject[] = [];
  /** True once an append succeeded: the run exists, and a refusal is an error. */
  private appended = false;

  constructor(
    private readonly inner: LlmAgentRunStream,
    private readonly keep: ResolvedKeepRunEvents,
  ) {
    this.runId = inner.runId;
  }

  get result(): Promise<LlmAgentRunResult> {
    return this.inner.result;
  }

  get buffered(): number {
    return this.inner.buffered;
  }

  get maxBuffered(): number {
    return this.inner.maxBuffered;
  }

  abort(reason?: unknown): void {
    this.inner.abort(reason);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    let next: IteratorResult<LlmAgentStreamEvent, undefined>;
    try {
      next = await this.inner.next();
    } catch (error) {
      // The run failed: followers learn it (the write's own failure cannot be told to anyone).
      await this.append(runFailedEvent(this.runId, error)).catch(() => undefined);
      throw error;
    }
    if (next.done === true) {
      await this.append(undefined);
      return next;
    }
    try {
      await this.append(keptEventOf(next.value));
    } catch (error) {
      await this.inner.return?.();
      throw error;
    }
    return next;
  }

  async return(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    return (await this.inner.return?.()) ?? { done: true, value: undefined };
  }

  /**
   * Appends `event` after the events held so far. A new run's first events (`run_started`) come before the run's
   * `createRun` has committed, which on a store that writes asynchronously (PostgreSQL) it has not yet when they are
   * handed on: until one append succeeded, an append the store refuses as `run_not_found` is held and written with
   * the next event (in order), never dropped; once the stream ends, what is still held is written or its error thrown.
   */
  private async append(event: JsonObject | undefined): Promise<void> {
    const events = event === undefined ? this.held : [...this.held, event];
    if (events.length === 0) return;
    try {
      await this.keep.log.appendRunEvents(this.runId, events, { maxPerRun: this.keep.maxPerRun });
    } catch (error) {
      if (event === undefined || this.appended || !RunStoreError.isInstance(error) || error.code !== 'run_not_found')
        throw error;
      this.held = events;
      return;
    }
    this.held = [];
    this.appended = true;
  }
}

/**
 * The JSON kept for a stream event: the event itself, except that `run_finished` keeps its result without the
 * conversation (`messages`: the run record holds it).
 */
function keptEventOf(event: LlmAgentStreamEvent): JsonObject {
  if (event.type !== 'run_finished') return JSON.parse(JSON.stringify(event)) as JsonObject;
  const { messages: _messages, ...result } = event.result;
  return JSON.parse(JSON.stringify({ ...event, result })) as JsonObject;
}

/** The kept event of a run that ended with `error`: its name, code and message. */
function runFailedEvent(runId: string, error: unknown): JsonObject {
  const name = error instanceof Error ? error.name : 'Error';
  const kept: JsonObject = { name, message: messageOf(error) };
  if (WuweError.isInstance(error)) kept.code = error.code;
  return { type: 'run_failed', runId, error: kept };
}
