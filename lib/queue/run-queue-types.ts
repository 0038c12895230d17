import type { AgentRunStatus, ApprovalRecord } from '../durable/agent-run-record';
import type { JsonObject, JsonValue } from '../outcome/json-value';

/** Options of one queued run. */
export interface EnqueueRunOptions {
  /** @default a random UUID */
  readonly runId?: string;
  /** Host data kept with the run (the queue adds its own under `queue`). */
  readonly metadata?: JsonObject;
  /** Most model requests of the run. @default the agent's own */
  readonly maxSteps?: number;
  /** Jobs of higher priority are taken first. @default 0 */
  readonly priority?: number;
}

/** What {@link RunQueue.enqueue} takes: which agent runs, on what prompt. */
export interface EnqueueRunRequest {
  /** The name a worker knows the agent's runner by (`startWorker({ agents })`). */
  readonly agent: string;
  /** The user's prompt: the run's first message. */
  readonly input: string;
  readonly options?: EnqueueRunOptions;
}

/** The queue's part of a run's metadata (`metadata.queue`). */
export interface QueuedRunMetadata extends JsonObject {
  readonly agent: string;
  readonly maxSteps: number | null;
  readonly enqueuedAt: string;
  /** The job queue's name (read as the default when a run stored earlier lacks it). */
  readonly queueName: string;
  /** The schema of the job queue's tables (read as the default when a run stored earlier lacks it). */
  readonly queueSchema: string;
}

/** The data of one job: the run to start or continue. @internal */
export interface RunJobData {
  readonly runId: string;
  readonly agent: string;
  /** Why the job was sent: a new run, a follow-up behind a live lease, an approval decided, a dead letter retried. */
  readonly reason: 'enqueued' | 'lease_followup' | 'approval_decided' | 'dead_letter_retried';
}

/**
 * What {@link RunQueue.cancel} did. `cancelled`: the run is cancelled in the store now. `cancelling`:
 * a worker is executing it; the request is stored and that worker stops the run (as `cancelled`)
 * within its `cancelCheckIntervalMs`, or the next worker to take the run cancels it. `finished`: the
 * run had already ended (`status` says how); nothing was changed.
 */
export interface RunCancellation {
  readonly runId: string;
  readonly result: 'cancelled' | 'cancelling' | 'finished';
  readonly status: AgentRunStatus;
}

/** A decision given to {@link RunQueue.decideApproval}. */
export interface QueueApprovalDecision {
  readonly approved: boolean;
  /**
   * The arguments hash the decider checked; refused (`approval_mismatch`) when it is not the request's. @default the
   * request's
   */
  readonly argumentsSha256?: string;
  readonly decidedBy?: string;
  readonly reason?: string;
}

/** What {@link RunQueue.decideApproval} did: the stored approval, and whether the run's resume was enqueued. */
export interface QueueApprovalResult {
  readonly approval: ApprovalRecord;
  /** True when no approval of the run is pending any more and a job to resume it was sent. */
  readonly resumeEnqueued: boolean;
}

/** A run that failed `maxAttempts` times, kept for an operator. */
export interface DeadLetter {
  /** The run its job named; `''` when the job named none (a `job_mismatch`). */
  readonly runId: string;
  /** The agent its job named (`''` when none). */
  readonly agent: string;
  /** What the last attempt failed with, as the queue stored it (an error's message, or an expiry). */
  readonly lastError: JsonValue | null;
  /** When the run went to the dead letters (ISO 8601). */
  readonly deadAt: string;
}
