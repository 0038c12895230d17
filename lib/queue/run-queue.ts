import { randomUUID } from 'node:crypto';
import { newRunId } from '../runner/new-run-id';
import { PostgresRunStore } from '../durable/postgres/postgres-run-store';
import { PostgresSqlExecutor } from '../durable/postgres/postgres-run-store-options';
import type { RunStore } from '../durable/run-store';
import { RunStoreError } from '../durable/run-store-error';
import { withRunLease } from '../durable/with-run-lease';
import type { JsonObject } from '../outcome/json-value';
import { deadLetterOfRow } from './dead-letters';
import { JobSendOptions, QueueJobs } from './queue-jobs';
import { agentOf, isFinal } from './queued-run-metadata';
import { queuedRootOf } from './queued-root';
import { checkEnqueueRequest } from './check-enqueue-request';
import { QueueStatements, queueStatements } from './queue-statements';
import { loadQueuedRecord, sharesDatabaseWithStore } from './queue-store-reads';
import { RunQueueError } from './run-queue-error';
import { ResolvedRunQueueOptions, resolveRunQueueOptions, RunQueueOptions } from './run-queue-options';
import {
  DeadLetter,
  EnqueueRunRequest,
  QueueApprovalDecision,
  QueueApprovalResult,
  QueuedRunMetadata,
  RunCancellation,
  RunJobData,
} from './run-queue-types';

/** How long the queue holds a run's lease while it cancels the run in the store. */
const CANCEL_LEASE_TTL_MS = 10_000;

/**
 * A queue of agent runs on PostgreSQL, on the job queue pg-boss (an optional peer dependency, pinned
 * to 10.4.2; loaded on the first `open`). The runs live in the given store; the queue only says which
 * run a worker should take up next. A run is created in the store when it is enqueued (its prompt is
 * its first message, `metadata.queue` names its agent), so every job a worker takes is a `resume()`:
 * the first, a retry after a worker died (its job expired), a follow-up behind another worker's
 * lease, or the continuation after an approval.
 *
 * Workers: {@link startWorker}. Operators: {@link RunQueue.cancel}, {@link RunQueue.deadLetters},
 * {@link RunQueue.retryDeadLetter}.
 */
export class RunQueue {
  /** The store the runs live in. */
  readonly store: RunStore;
  /** The options, every default filled. @internal */
  readonly options: ResolvedRunQueueOptions;
  /** The queue's jobs (on pg-boss). @internal */
  readonly jobs: QueueJobs;
  /** The dead-letter queue's name: the queue's name with `-dead`. */
  readonly deadLetterName: string;
  /**
   * Whether `enqueue` creates the run and sends its first job in one transaction: true when the store is
   * a `PostgresRunStore` on the queue's own database (checked by `open`). Otherwise a run is created first
   * and its job sent after; a failed send marks the run `failed`, but a crash between the two leaves the
   * run `running` without a job.
   */
  readonly atomicEnqueue: boolean;
  private readonly statements: QueueStatements;
  private closed = false;

  private constructor(options: ResolvedRunQueueOptions, jobs: QueueJobs, atomicEnqueue: boolean) {
    this.store = options.store;
    this.atomicEnqueue = atomicEnqueue;
    this.options = options;
    this.jobs = jobs;
    this.deadLetterName = jobs.deadLetterName;
    this.statements = queueStatements(options.schema);
  }

  /**
   * Validates the options (`invalid_queue_options`), connects, creates or migrates pg-boss's tables and
   * the queue's own, and starts looking for abandoned jobs every `superviseIntervalSeconds`.
   * @throws MissingDependencyError when `pg-boss` is not installed.
   */
  static async open(options: RunQueueOptions): Promise<RunQueue> {
    const resolved = resolveRunQueueOptions(options);
    const jobs = await QueueJobs.open(resolved);
    let queue = new RunQueue(resolved, jobs, false);
    try {
      await queue.sql(queue.statements.createCancellations, []);
      if (await sharesDatabaseWithStore(queue.store, jobs, queue.statements))
        queue = new RunQueue(resolved, jobs, true);
    } catch (error) {
      await jobs.stop().catch(() => undefined);
      throw error;
    }
    return queue;
  }

  /**
   * Creates the run in the store (status `running`, the prompt as its first message) and sends a job
   * for it; returns the run id. Every field is checked before anything is written: `invalid_queue_options`
   * for a malformed agent name, input, run id, `metadata` (a plain JSON object without the key `queue`),
   * `maxSteps`, `priority` (a PostgreSQL integer) or an unknown option. Throws `unknown_agent` when the
   * queue was given `agents` without this one, `run_exists` when `options.runId` is taken.
   * When sending the job fails after the run was created, the run is marked `failed` and the error is thrown.
   */
  async enqueue(request: EnqueueRunRequest): Promise<string> {
    this.checkOpen();
    const checked = checkEnqueueRequest(request);
    const { agent, input } = checked;
    if (this.options.agents !== undefined && !this.options.agents.includes(agent))
      throw new RunQueueError(
        'unknown_agent',
        `the queue knows no agent '${agent}' (known: ${this.options.agents.join(', ')})`,
      );
    const runId = checked.runId ?? newRunId();
    const queueMetadata: QueuedRunMetadata = {
      agent,
      maxSteps: checked.maxSteps ?? null,
      enqueuedAt: new Date().toISOString(),
      queueName: this.options.name,
      queueSchema: this.options.schema,
    };
    const run = {
      runId,
      status: 'running' as const,
      metadata: { ...checked.metadata, queue: queueMetadata },
      messages: [{ role: 'user' as const, content: input }],
    };
    const job: RunJobData = { runId, agent, reason: 'enqueued' };
    try {
      if (this.atomicEnqueue && PostgresRunStore.isInstance(this.store)) {
        await this.store.createRunWith(run, (db) => this.send(job, { priority: checked.priority }, db));
        return runId;
      }
      await this.store.createRun(run);
    } catch (error) {
      if (RunStoreError.isInstance(error) && error.code === 'run_exists')
        throw new RunQueueError('run_exists', `run '${runId}' already exists`, { runId, cause: error });
      throw error;
    }
    try {
      await this.send(job, { priority: checked.priority });
    } catch (error) {
      await this.store.setStatus(runId, 'failed').catch(() => undefined);
      throw error;
    }
    return runId;
  }

  /**
   * Cancels a run that is queued or running. The request is stored first, then the run's waiting jobs
   * are cancelled, then the run is set `cancelled` in the store under its lease. When a worker holds
   * the lease (the run is executing) the result is `cancelling`: that worker sees the request within
   * its `cancelCheckIntervalMs` and stops the run, which it records as `cancelled`. A run that ended
   * before is left as it is (`finished`). Throws `run_not_found`.
   */
  async cancel(runId: string): Promise<RunCancellation> {
    this.checkOpen();
    const record = await loadQueuedRecord(this.store, runId);
    if (isFinal(record)) return { runId, result: 'finished', status: record.status };
    await this.sql(this.statements.requestCancellation, [runId]);
    const waiting = await this.sql(this.statements.waitingJobsOfRun, [this.options.name, runId]);
    if (waiting.length > 0) await this.jobs.cancel(waiting.map((row) => String(row.id)));
    return this.cancelInStore(runId, `wuwe-queue-cancel:${randomUUID()}`);
  }

  /**
   * Sets a run whose cancellation was requested `cancelled` in the store, under its lease (so no worker
   * writes to it meanwhile). `cancelling` when another worker holds the lease. @internal
   */
  async cancelInStore(runId: string, workerId: string): Promise<RunCancellation> {
    try {
      return await withRunLease(this.store, runId, { workerId, ttlMs: CANCEL_LEASE_TTL_MS }, async (_signal, held) => {
        if (isFinal(held.record)) return { runId, result: 'finished', status: held.record.status };
        await this.store.setStatus(runId, 'cancelled', { fencingToken: held.fencingToken });
        return { runId, result: 'cancelled', status: 'cancelled' };
      });
    } catch (error) {
      if (RunStoreError.isInstance(error) && error.code === 'lease_held')
        return { runId, result: 'cancelling', status: (await loadQueuedRecord(this.store, runId)).status };
      throw error;
    }
  }

  /** The worker's heartbeat on the jobs it executes (see {@link QueueStatements.touchJobs}). @internal */
  async touchJobs(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length > 0) await this.sql(this.statements.touchJobs, [this.options.name, jobIds]);
  }

  /**
   * Fails an active job with no retry left, so that it goes to the dead letters at once with `output`
   * as its last error. @internal
   */
  async deadLetterNow(jobId: string, output: JsonObject): Promise<void> {
    await this.sql(this.statements.exhaustJob, [this.options.name, jobId, this.deadLetterName]);
    await this.jobs.fail(jobId, output);
  }

  /** The runs among `runIds` whose cancellation was requested. @internal */
  async cancellationsAmong(runIds: readonly string[]): Promise<Set<string>> {
    if (runIds.length === 0) return new Set();
    const rows = await this.sql(this.statements.cancelledAmong, [runIds]);
    return new Set(rows.map((row) => String(row.run_id)));
  }

  /**
   * Stores a decision on a pending approval of a run, bound to the request's tool name and arguments
   * hash (a given `argumentsSha256` must be the request's: `approval_mismatch`), and when no approval
   * of the run is pending any more, enqueues its resume. A call id the model used in several turns means
   * the latest turn's call. Throws `run_not_found`, `approval_not_pending`.
   */
  async decideApproval(runId: string, callId: string, decision: QueueApprovalDecision): Promise<QueueApprovalResult> {
    this.checkOpen();
    const record = await loadQueuedRecord(this.store, runId);
    // A call id can repeat across turns: the latest turn's request is the one the run waits for.
    const request = record.approvals
      .filter((approval) => approval.callId === callId)
      .sort((a, b) => b.turn - a.turn)[0];
    if (request === undefined)
      throw new RunQueueError('approval_not_pending', `run '${runId}' has no approval request for call '${callId}'`, {
        runId,
      });
    if (typeof decision !== 'object' || decision === null)
      throw new RunQueueError('invalid_queue_options', 'an approval decision must be an object', { runId });
    // Each field read once; the store checks their types (`record_invalid`: `approved` must be a boolean).
    const { approved, argumentsSha256, decidedBy, reason } = decision;
    const approval = await this.store.decideApproval(
      runId,
      callId,
      {
        approved,
        toolName: request.toolName,
        argumentsSha256: argumentsSha256 ?? request.argumentsSha256,
        ...(decidedBy === undefined ? {} : { decidedBy }),
        ...(reason === undefined ? {} : { reason }),
      },
      { turn: request.turn },
    );
    return { approval, resumeEnqueued: await this.resumeAfterApproval(runId) };
  }

  /**
   * Enqueues the resume of a run waiting on approvals once none is pending (decided elsewhere, e.g.
   * with `wuwe approvals approve`); returns whether it did. For a child run of an agent tool, the run resumed is the
   * root of its tree (the run the queue enqueued), which resumes the child; each link up the tree is checked against
   * the call the parent recorded. Throws `run_not_found`, and `job_mismatch` for a child whose recorded parent did not
   * start it.
   */
  async resumeAfterApproval(runId: string): Promise<boolean> {
    this.checkOpen();
    const record = await loadQueuedRecord(this.store, runId);
    if (record.status !== 'awaiting_approval' || record.approvals.some((approval) => approval.state === 'pending'))
      return false;
    const root = await queuedRootOf(this.store, record);
    if (root.status !== 'awaiting_approval') return false;
    await this.send({ runId: root.runId, agent: agentOf(root), reason: 'approval_decided' });
    return true;
  }

  /** The runs that failed `maxAttempts` times and wait for an operator, oldest first. */
  async deadLetters(): Promise<readonly DeadLetter[]> {
    this.checkOpen();
    const rows = await this.sql(this.statements.deadLetters, [this.deadLetterName]);
    return rows.map(deadLetterOfRow);
  }

  /**
   * Takes a run out of the dead letters and enqueues it again with a fresh count of attempts; returns whether it was
   * there.
   */
  async retryDeadLetter(runId: string): Promise<boolean> {
    this.checkOpen();
    const rows = await this.sql(this.statements.deadLettersOfRun, [this.deadLetterName, runId]);
    if (rows.length === 0) return false;
    await this.jobs.cancelDeadLetters(rows.map((row) => String(row.id)));
    await this.send({
      runId,
      agent: agentOf(await loadQueuedRecord(this.store, runId)),
      reason: 'dead_letter_retried',
    });
    return true;
  }

  /** Sends a job for a run (see {@link QueueJobs.send}). @internal */
  async send(data: RunJobData, options: JobSendOptions = {}, db?: PostgresSqlExecutor): Promise<void> {
    await this.jobs.send(data, options, db);
  }

  /**
   * Stops the queue's background work and closes its connections; later calls throw `queue_closed`. The store stays
   * open.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.jobs.stop();
  }

  /** Throws `queue_closed` after `close()`. @internal */
  checkOpen(): void {
    if (this.closed) throw new RunQueueError('queue_closed', 'the run queue was closed');
  }

  private async sql(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    return this.jobs.sql(text, values);
  }
}
