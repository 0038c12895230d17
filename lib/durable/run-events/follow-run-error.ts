import { hasErrorMarker } from '../../errors/error-marker';
import { WuweError } from '../../errors/wuwe-error';

/**
 * Codes of {@link FollowRunError}.
 *
 * - `no_event_log`: the store keeps no run events (it lacks the `RunEventLog` methods).
 * - `events_dropped`: the events right after the follower's last id were dropped by retention (`maxPerRun`):
 *   following on would leave a gap.
 * - `invalid_cursor`: `after` is not a whole number >= 0, or is past the last event id the store has issued for the
 *   run; for a UI stream, `lastEventId` is not an SSE id the stream issued (not a string, not `<event id>:<chunk
 *   index>`, an event past the run's last one, or a chunk index that event does not have).
 */
export type FollowRunErrorCode = 'no_event_log' | 'events_dropped' | 'invalid_cursor';

const FOLLOW_RUN_ERROR_MARKER = Symbol.for('wuwe.error.FollowRunError');

/** A run that cannot be followed from where the follower asked. */
export class FollowRunError extends WuweError<FollowRunErrorCode> {
  /** The run concerned. */
  readonly runId: string;
  private readonly [FOLLOW_RUN_ERROR_MARKER] = true;

  /** True when `value` is a FollowRunError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is FollowRunError {
    return hasErrorMarker(value, FOLLOW_RUN_ERROR_MARKER);
  }

  constructor(code: FollowRunErrorCode, runId: string, message: string) {
    super(code, message);
    this.runId = runId;
  }
}
