import { JsonSchema } from '../../contract/json-schema';
import { ToolSideEffect } from '../../contract/tool-descriptor';
import { JsonValue } from '../../outcome/json-value';
import { HeartbeatProgress } from '../../providers/tool-invocation';

/** What a job handler receives besides its input. */
export interface JobContext {
  readonly jobId: string;
  readonly kind: string;
  /** Aborted when the job is cancelled (by `job_cancel`, by the run, or at a `job_run` deadline). */
  readonly signal: AbortSignal;
  /** Reports liveness and progress: visible in `job_status` and forwarded as a heartbeat by `job_run`. */
  reportProgress(progress?: HeartbeatProgress): void;
}

/** The host's code for one kind of job. Its result must be JSON (`undefined` becomes `null`). */
export type JobHandler = (input: JsonValue, context: JobContext) => JsonValue | void | Promise<JsonValue | void>;

/** A job kind with what the tools need to describe it honestly. */
export interface JobDefinition {
  readonly handler: JobHandler;
  /** Shown to the model in the tool descriptions. */
  readonly description?: string;
  /** Schema the `input` of this kind must match; checked before the job starts. @default any JSON */
  readonly inputSchema?: JsonSchema;
  /**
   * What running this kind does to the world; the start and run tools declare the strongest of all kinds. @default
   * 'write'
   */
  readonly sideEffect?: ToolSideEffect;
}

/**
 * Life cycle of a job: `running`, then `succeeded`, `failed` or `cancelled`. A cancel request
 * moves a running job to `cancelling` until its handler settles (a handler that finishes anyway
 * ends `succeeded`; one that throws after the abort ends `cancelled`).
 */
export type JobStatus = 'running' | 'cancelling' | 'succeeded' | 'failed' | 'cancelled';

/** A point-in-time view of a job, as the tools answer it. */
export interface JobSnapshot {
  readonly jobId: string;
  readonly kind: string;
  readonly status: JobStatus;
  /** The last progress reported. */
  readonly progress?: HeartbeatProgress;
  /** How many times progress was reported. */
  readonly heartbeats: number;
  readonly startedAtMs: number;
  readonly finishedAtMs?: number;
  /** The handler's result, once `succeeded`. */
  readonly result?: JsonValue;
  /** Why the job failed or was cancelled. */
  readonly error?: string;
}

/** True for the statuses a job never leaves. */
export function isFinishedJobStatus(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}
