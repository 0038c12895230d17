import { messageOf } from '../../errors/message-of';
import { JsonValue } from '../../outcome/json-value';
import { HeartbeatProgress } from '../../providers/tool-invocation';
import { isFinishedJobStatus, JobHandler, JobSnapshot, JobStatus } from './job-types';
import { sanitizeProgress, toJson } from './sanitize-progress';

const MAX_ERROR_CHARS = 2000;

/**
 * One running or finished job: owns the abort controller handed to the handler, the last
 * progress, and the result. `settled` resolves (never rejects) when the handler has settled.
 */
export class Job {
  readonly settled: Promise<void>;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(progress: HeartbeatProgress) => void>();
  private status: JobStatus = 'running';
  private progress?: HeartbeatProgress;
  private heartbeats = 0;
  private finishedAtMs?: number;
  private result?: JsonValue;
  private error?: string;

  /** Starts `handler` on `input` right away. */
  constructor(
    readonly id: string,
    readonly kind: string,
    handler: JobHandler,
    input: JsonValue,
    private readonly now: () => number,
    readonly startedAtMs = now(),
  ) {
    const context = {
      jobId: id,
      kind,
      signal: this.controller.signal,
      reportProgress: (p?: HeartbeatProgress) => this.report(p),
    };
    this.settled = Promise.resolve()
      .then(() => handler(input, context))
      .then(
        (value) => this.succeed(value),
        (reason: unknown) => this.fail(reason),
      )
      // Settling never throws today; this keeps a job from staying `running` if that ever changes.
      .catch((error: unknown) =>
        this.finish('failed', undefined, `The job could not be settled: ${messageOf(error)}`.slice(0, MAX_ERROR_CHARS)),
      );
  }

  /** True once the job reached `succeeded`, `failed` or `cancelled`. */
  get finished(): boolean {
    return isFinishedJobStatus(this.status);
  }

  /** Requests cancellation: aborts the handler's signal. No effect on a finished job. */
  cancel(reason: string): void {
    if (this.finished || this.status === 'cancelling') return;
    this.status = 'cancelling';
    this.error = reason;
    this.controller.abort(new Error(reason));
  }

  /** Calls `listener` with every later progress report; returns the unsubscribe function. */
  onProgress(listener: (progress: HeartbeatProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A copy of the job's current state. */
  snapshot(): JobSnapshot {
    return {
      jobId: this.id,
      kind: this.kind,
      status: this.status,
      ...(this.progress === undefined ? {} : { progress: this.progress }),
      heartbeats: this.heartbeats,
      startedAtMs: this.startedAtMs,
      ...(this.finishedAtMs === undefined ? {} : { finishedAtMs: this.finishedAtMs }),
      ...(this.result === undefined ? {} : { result: this.result }),
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }

  private report(progress?: HeartbeatProgress): void {
    if (this.finished) return;
    const clean = sanitizeProgress(progress);
    this.progress = clean;
    this.heartbeats += 1;
    for (const listener of this.listeners) listener(clean);
  }

  private succeed(value: JsonValue | void): void {
    const result = value === undefined ? null : toJson(value);
    if (result === undefined) return this.finish('failed', undefined, 'The job returned a result that is not JSON.');
    this.finish('succeeded', result, undefined);
  }

  private fail(reason: unknown): void {
    const message = messageOf(reason).slice(0, MAX_ERROR_CHARS);
    if (this.status === 'cancelling') this.finish('cancelled', undefined, this.error ?? message);
    else this.finish('failed', undefined, message);
  }

  private finish(status: JobStatus, result: JsonValue | undefined, error: string | undefined): void {
    this.status = status;
    this.result = result;
    this.error = status === 'succeeded' ? undefined : error;
    this.finishedAtMs = this.now();
    this.listeners.clear();
  }
}
