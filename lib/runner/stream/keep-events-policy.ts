import type { RunStore } from '../../durable/run-store';
import { hasRunEventLog, RunEventLog } from '../../durable/run-events/run-event-log';
import { LlmAgentError } from '../runner-error';

/**
 * Keeps a run's stream events in its store (`keepEvents` run option), so another process can follow the run
 * (`followRun()`, `followRunResponse()`): a queue worker runs it, a web process streams it to a browser.
 *
 * Every event of the run's stream (`LlmAgentStreamEvent`: text and argument deltas, each call's finish with its
 * projected content, each step's end, `run_finished` with the result minus its `messages`), and `run_failed` for a
 * run that ended with an error, is appended before the stream hands it on, each with the next id of the run. The
 * run is streamed even when started with `complete()` or `resume()` (same loop, same record). A store write that
 * fails aborts the run and ends it with that error: a follower must not wait for events never kept.
 *
 * Retention is bounded per run: beyond `maxPerRun` events the oldest are dropped (the last events, the final one
 * included, stay). A follower resuming after an id whose successors were dropped gets `events_dropped`, never a gap.
 */
export interface KeepRunEventsPolicy {
  /** The most events the store keeps for one run; a whole number >= 1. @default 10000 */
  readonly maxPerRun?: number;
}

/** The defaults of {@link KeepRunEventsPolicy}. */
export const DEFAULT_KEEP_RUN_EVENTS_POLICY: Readonly<Required<KeepRunEventsPolicy>> = Object.freeze({
  maxPerRun: 10_000,
});

/** A checked {@link KeepRunEventsPolicy} with its store. @internal */
export interface ResolvedKeepRunEvents {
  readonly log: RunEventLog;
  readonly maxPerRun: number;
}

/**
 * The resolved policy of a run's options, or `undefined` when events are not kept.
 * @throws {@link LlmAgentError} `invalid_run_options` for a policy that is not an object, without a store that keeps
 *   events, or for a bad `maxPerRun`.
 * @internal
 */
export function resolveKeepEvents(
  policy: KeepRunEventsPolicy | undefined,
  store: RunStore | undefined,
): ResolvedKeepRunEvents | undefined {
  if (policy === undefined) return undefined;
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy))
    throw new LlmAgentError(
      'invalid_run_options',
      `\`keepEvents\` must be a policy object (\`{}\` for the defaults), got ${policy === null ? 'null' : Array.isArray(policy) ? 'an array' : `a ${typeof policy}`}`,
    );
  const maxPerRun = policy.maxPerRun ?? DEFAULT_KEEP_RUN_EVENTS_POLICY.maxPerRun;
  if (!Number.isSafeInteger(maxPerRun) || maxPerRun < 1)
    throw new LlmAgentError(
      'invalid_run_options',
      `\`keepEvents.maxPerRun\` must be a whole number >= 1, got ${String(maxPerRun)}`,
    );
  if (store === undefined) throw new LlmAgentError('invalid_run_options', '`keepEvents` needs a `store`');
  if (!hasRunEventLog(store))
    throw new LlmAgentError(
      'invalid_run_options',
      '`keepEvents` needs a store that keeps run events (appendRunEvents, readRunEvents, waitForRunEvents)',
    );
  return { log: store, maxPerRun };
}
