import { randomUUID } from 'node:crypto';
import { TOOL_NAME_PATTERN } from '../../contract/llm-tool';
import { JsonValue } from '../../outcome/json-value';
import { compileInputValidator } from '../../validation/schema-validator';
import { ExecutionModuleError } from './execution-module-error';
import { Job } from './job';
import { JobDefinition, JobHandler } from './job-types';
import { messageOf } from '../../errors/message-of';

/** Limits of a {@link JobManager}. */
export interface JobManagerOptions {
  /** Jobs running (or cancelling) at once; a start beyond it is refused. @default 16 */
  readonly maxRunningJobs?: number;
  /** Finished jobs kept for status and result queries; the oldest are forgotten first. @default 100 */
  readonly maxRetainedJobs?: number;
  /** Clock in epoch milliseconds. @default Date.now */
  readonly now?: () => number;
}

/** Why a start was refused. */
export type JobStartRefusal =
  | { readonly reason: 'unknown_kind'; readonly kinds: readonly string[] }
  | { readonly reason: 'too_many_jobs'; readonly limit: number };

/**
 * Result of {@link JobManager.start}: the job (possibly one started earlier under the same idempotency key) or a
 * refusal.
 */
export type JobStartResult =
  { readonly ok: true; readonly job: Job; readonly reused: boolean } | ({ readonly ok: false } & JobStartRefusal);

const KIND_PATTERN = TOOL_NAME_PATTERN;
const SIDE_EFFECTS: readonly string[] = ['none', 'read', 'write', 'destructive'];

/** Registered job kinds and the jobs started from them, in this process. */
export class JobManager {
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly jobs = new Map<string, Job>();
  private readonly byIdempotencyKey = new Map<string, string>();
  private readonly maxRunningJobs: number;
  private readonly maxRetainedJobs: number;
  private readonly now: () => number;

  /** Throws `ExecutionModuleError` (`invalid_execution_options`) for limits that are not positive integers. */
  constructor(options: JobManagerOptions = {}) {
    this.maxRunningJobs = options.maxRunningJobs ?? 16;
    this.maxRetainedJobs = options.maxRetainedJobs ?? 100;
    this.now = options.now ?? Date.now;
    for (const [name, value] of [
      ['maxRunningJobs', this.maxRunningJobs],
      ['maxRetainedJobs', this.maxRetainedJobs],
    ] as const)
      if (!Number.isSafeInteger(value) || value < 1)
        throw new ExecutionModuleError(
          'invalid_execution_options',
          `${name} must be a positive integer, got ${messageOf(value)}.`,
        );
  }

  /**
   * Registers a job kind. Throws `ExecutionModuleError` for a bad kind name or handler (`invalid_job_kind`) or a kind
   * already registered (`duplicate_job_kind`).
   */
  register(kind: string, definition: JobHandler | JobDefinition): void {
    if (typeof kind !== 'string' || !KIND_PATTERN.test(kind))
      throw new ExecutionModuleError(
        'invalid_job_kind',
        `Job kind '${messageOf(kind)}' must match ${KIND_PATTERN.source}.`,
      );
    const resolved = typeof definition === 'function' ? { handler: definition } : definition;
    if (typeof resolved?.handler !== 'function')
      throw new ExecutionModuleError('invalid_job_kind', `Job kind '${kind}' needs a handler function.`);
    if (resolved.sideEffect !== undefined && !SIDE_EFFECTS.includes(resolved.sideEffect))
      throw new ExecutionModuleError(
        'invalid_job_kind',
        `Job kind '${kind}' has unknown sideEffect '${messageOf(resolved.sideEffect)}'.`,
      );
    if (resolved.inputSchema !== undefined) {
      try {
        compileInputValidator(resolved.inputSchema);
      } catch (error) {
        throw new ExecutionModuleError(
          'invalid_job_kind',
          `Job kind '${kind}' has an input schema that does not compile.`,
          { cause: error },
        );
      }
    }
    if (this.definitions.has(kind))
      throw new ExecutionModuleError('duplicate_job_kind', `Job kind '${kind}' is already registered.`);
    this.definitions.set(kind, Object.freeze({ ...resolved }));
  }

  /** Registered kinds and their definitions, in registration order. */
  kinds(): ReadonlyMap<string, JobDefinition> {
    return this.definitions;
  }

  /**
   * Starts a job of a registered kind; with an idempotency key already used, answers that job instead of starting
   * another.
   */
  start(kind: string, input: JsonValue, idempotencyKey?: string): JobStartResult {
    if (idempotencyKey !== undefined) {
      const existing = this.jobs.get(this.byIdempotencyKey.get(idempotencyKey) ?? '');
      if (existing !== undefined) return { ok: true, job: existing, reused: true };
    }
    const definition = this.definitions.get(kind);
    if (definition === undefined) return { ok: false, reason: 'unknown_kind', kinds: [...this.definitions.keys()] };
    if (this.runningCount() >= this.maxRunningJobs)
      return { ok: false, reason: 'too_many_jobs', limit: this.maxRunningJobs };
    const job = new Job(`job_${randomUUID()}`, kind, definition.handler, input, this.now);
    this.jobs.set(job.id, job);
    if (idempotencyKey !== undefined) this.byIdempotencyKey.set(idempotencyKey, job.id);
    void job.settled.then(() => this.evictFinished());
    return { ok: true, job, reused: false };
  }

  /** The job with this id, if it is known (running, or finished and still retained). */
  get(jobId: string): Job | undefined {
    return this.jobs.get(jobId);
  }

  /** Requests cancellation of every unfinished job (for shutdown). */
  cancelAll(reason = 'The job manager was shut down.'): void {
    for (const job of this.jobs.values()) job.cancel(reason);
  }

  private runningCount(): number {
    let count = 0;
    for (const job of this.jobs.values()) if (!job.finished) count += 1;
    return count;
  }

  private evictFinished(): void {
    const finished = [...this.jobs.values()].filter((job) => job.finished);
    for (const job of finished.slice(0, Math.max(0, finished.length - this.maxRetainedJobs))) {
      this.jobs.delete(job.id);
      for (const [key, jobId] of this.byIdempotencyKey) if (jobId === job.id) this.byIdempotencyKey.delete(key);
    }
  }
}
