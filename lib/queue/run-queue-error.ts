import { hasErrorMarker } from '../errors/error-marker';
import { WuweError } from '../errors/wuwe-error';

const RUN_QUEUE_ERROR_MARKER = Symbol.for('wuwe.error.RunQueueError');

/**
 * Stable codes of {@link RunQueueError}.
 *
 * - `invalid_queue_options`: an option of the queue or the worker is out of range (nothing was started).
 * - `unknown_agent`: `enqueue` names an agent the queue was not told about, or a job names one the worker has no runner
 * for.
 * - `run_not_found`: no stored run has the id.
 * - `run_exists`: `enqueue` was given a run id that is already taken.
 * - `approval_not_pending`: the call named by `decideApproval` has no approval request in the run.
 * - `run_cancelled`: the reason a worker's run is aborted with when its cancellation was requested.
 * - `queue_closed`: the queue was used after `close()`.
 * - `enqueue_failed`: the job queue did not accept a run's job (with an atomic enqueue, the run was not created
 * either).
 * - `job_mismatch`: a job names no run, or does not match what the queue recorded in the run when it enqueued it
 *   (`metadata.queue`: the agent, the queue), or the run was not enqueued by a `RunQueue`; the worker refused it
 *   before touching the run and dead-lettered it at once.
 */
export type RunQueueErrorCode =
  | 'invalid_queue_options'
  | 'unknown_agent'
  | 'run_not_found'
  | 'run_exists'
  | 'approval_not_pending'
  | 'run_cancelled'
  | 'queue_closed'
  | 'enqueue_failed'
  | 'job_mismatch';

/** An error of the run queue or its workers; `runId` names the run when there is one. */
export class RunQueueError extends WuweError<RunQueueErrorCode> {
  /** The run concerned, when there is one. */
  readonly runId?: string;
  private readonly [RUN_QUEUE_ERROR_MARKER] = true;

  constructor(
    code: RunQueueErrorCode,
    message: string,
    options: { readonly runId?: string; readonly cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    if (options.runId !== undefined) this.runId = options.runId;
  }

  /** True when `value` is a RunQueueError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is RunQueueError {
    return hasErrorMarker(value, RUN_QUEUE_ERROR_MARKER);
  }
}
