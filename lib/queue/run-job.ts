import { RunStoreError } from '../durable/run-store-error';
import { messageOf } from '../errors/message-of';
import type { JsonObject } from '../outcome/json-value';
import { LlmAgentError } from '../runner/runner-error';
import { agentNamed, checkJobAgainstRecord } from './job-provenance';
import type { QueueAgent } from './queue-agent';
import { RunQueueError } from './run-queue-error';
import { isFinal, maxStepsOf } from './queued-run-metadata';
import { RunQueue } from './run-queue';
import type { RunJobData } from './run-queue-types';

/** How long after a live lease's expiry a follow-up job looks at the run again. */
const FOLLOW_UP_MARGIN_MS = 1_000;

/** One job as a worker took it (pg-boss metadata included). @internal */
export interface TakenRunJob {
  readonly id: string;
  /** Its data, `undefined` when the row names no run (see `parseRunJobData`). */
  readonly data: RunJobData | undefined;
  readonly retryCount: number;
  readonly retryLimit: number;
}

/**
 * How a job ended: completed with an output, failed (retried by the queue until `maxAttempts`), or
 * refused (`dead_letter`: no retry can change the outcome, so it goes to the dead letters at once). @internal
 */
export type RunJobResult =
  | { readonly kind: 'complete'; readonly output: JsonObject }
  | { readonly kind: 'fail'; readonly error: unknown }
  | { readonly kind: 'dead_letter'; readonly error: RunQueueError };

/** What {@link executeRunJob} runs with. @internal */
export interface RunJobContext {
  readonly queue: RunQueue;
  readonly agents: Readonly<Record<string, QueueAgent>>;
  readonly workerId: string;
  readonly leaseTtlMs: number;
  /** Aborts the run when its cancellation is requested. */
  readonly signal: AbortSignal;
}

/**
 * Takes up one job: the run's `resume()` under its lease, unless the run has ended, waits on an
 * approval still pending, or was asked to cancel (then it is cancelled here). A job that names no run,
 * or that does not match what the queue recorded in the run (`metadata.queue`: the agent, the queue)
 * is refused before anything touches the run: `job_mismatch`, dead-lettered. When another worker holds
 * the run's lease, a follow-up job is sent for just after that lease expires (it finds the run ended, or
 * takes it over when its worker died) and this job completes. Any other failure fails the job. @internal
 */
export async function executeRunJob(context: RunJobContext, job: TakenRunJob): Promise<RunJobResult> {
  const { queue, workerId } = context;
  const data = job.data;
  if (data === undefined)
    return {
      kind: 'dead_letter',
      error: new RunQueueError(
        'job_mismatch',
        `job '${job.id}' names no run (its data is not { runId, agent }); the job is refused`,
      ),
    };
  const runId = data.runId;
  try {
    const record = await queue.store.loadRun(runId);
    if (record === undefined) return { kind: 'complete', output: { runId, skipped: 'run_not_found' } };
    const agentName = checkJobAgainstRecord(data, record, queue.options);
    if (isFinal(record)) return { kind: 'complete', output: { runId, status: record.status } };
    if ((await queue.cancellationsAmong([runId])).has(runId)) {
      const cancellation = await queue.cancelInStore(runId, workerId);
      if (cancellation.result === 'cancelling') await followUp(context, job, data);
      return { kind: 'complete', output: { runId, cancellation: cancellation.result } };
    }
    if (record.status === 'awaiting_approval' && record.approvals.some((approval) => approval.state === 'pending'))
      return { kind: 'complete', output: { runId, status: record.status } };
    const agent = agentNamed(context.agents, agentName);
    if (agent === undefined)
      throw new RunQueueError(
        'unknown_agent',
        `this worker has no agent '${agentName}' (it has: ${Object.keys(context.agents).join(', ')})`,
        { runId },
      );
    const maxSteps = maxStepsOf(record);
    const result = await agent.runner.resume(runId, {
      ...agent.runOptions,
      store: queue.store,
      signal:
        agent.runOptions?.signal === undefined
          ? context.signal
          : AbortSignal.any([agent.runOptions.signal, context.signal]),
      workerId,
      leaseTtlMs: context.leaseTtlMs,
      ...(maxSteps === undefined ? {} : { maxSteps }),
    });
    return { kind: 'complete', output: { runId, stopReason: result.stopReason, steps: result.steps } };
  } catch (error) {
    if (RunQueueError.isInstance(error) && error.code === 'job_mismatch') return { kind: 'dead_letter', error };
    if (RunStoreError.isInstance(error) && error.code === 'lease_held') {
      await followUp(context, job, data);
      return { kind: 'complete', output: { runId, leaseHeldElsewhere: true } };
    }
    // The run ended (completed or cancelled) between the read above and the lease.
    if (LlmAgentError.isInstance(error) && error.code === 'run_conflict')
      return { kind: 'complete', output: { runId, conflict: messageOf(error) } };
    return { kind: 'fail', error };
  }
}

/**
 * Sends a job to look at the run again just after its current lease expires, with the attempts this
 * job has left (a follow-up never gives a run more attempts).
 */
async function followUp(context: RunJobContext, job: TakenRunJob, data: RunJobData): Promise<void> {
  const record = await context.queue.store.loadRun(data.runId);
  if (record === undefined || isFinal(record)) return;
  const expiresAtMs = record.lease?.expiresAtMs ?? Date.now();
  await context.queue.send(
    { runId: data.runId, agent: data.agent, reason: 'lease_followup' },
    {
      startAfter: new Date(Math.max(expiresAtMs, Date.now()) + FOLLOW_UP_MARGIN_MS),
      retryLimit: Math.max(0, job.retryLimit - job.retryCount),
    },
  );
}
