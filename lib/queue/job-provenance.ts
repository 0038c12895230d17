import type { AgentRunRecord } from '../durable/agent-run-record';
import type { QueueAgent } from './queue-agent';
import { checkAgentName, isPlainRecord } from './queue-names';
import { RunQueueError } from './run-queue-error';
import { queuedRunMetadataOf } from './queued-run-metadata';
import type { ResolvedRunQueueOptions } from './run-queue-options';
import type { RunJobData } from './run-queue-types';

/**
 * A job row's data as a worker read it from the job table: a {@link RunJobData} when it names a run
 * (`runId`, a non-empty string) and an agent (a string), else `undefined`. Anyone who can write to the
 * queue's schema can write a row, so nothing in it is trusted beyond its shape. @internal
 */
export function parseRunJobData(data: unknown): RunJobData | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { runId, agent, reason } = data as Record<string, unknown>;
  if (typeof runId !== 'string' || runId === '' || typeof agent !== 'string') return undefined;
  return { runId, agent, reason: typeof reason === 'string' ? (reason as RunJobData['reason']) : 'enqueued' };
}

/**
 * Checks a job against what the queue itself recorded in the run when it enqueued it
 * (`metadata.queue`): the run must have been enqueued by a `RunQueue`, on this queue (its name and
 * schema, when the record has them), for the agent the job names. Throws `job_mismatch` otherwise.
 * Returns the agent's name, as the record has it. @internal
 */
export function checkJobAgainstRecord(
  data: RunJobData,
  record: AgentRunRecord,
  options: Pick<ResolvedRunQueueOptions, 'name' | 'schema'>,
): string {
  const runId = record.runId;
  const enqueued = queuedRunMetadataOf(record);
  const mismatch = (message: string): never => {
    throw new RunQueueError('job_mismatch', message, { runId });
  };
  if (enqueued === undefined)
    return mismatch(
      `run '${runId}' was not enqueued by a RunQueue (its record has no metadata.queue); the job is refused`,
    );
  if (
    (enqueued.queueName ?? options.name) !== options.name ||
    (enqueued.queueSchema ?? options.schema) !== options.schema
  )
    mismatch(
      `run '${runId}' was enqueued on queue '${enqueued.queueName ?? options.name}' (schema '${enqueued.queueSchema ?? options.schema}'), not on '${options.name}' (schema '${options.schema}'); the job is refused`,
    );
  if (enqueued.agent !== data.agent)
    mismatch(
      `run '${runId}' was enqueued for agent '${enqueued.agent}', the job names '${data.agent}'; the job is refused`,
    );
  return enqueued.agent;
}

/**
 * Throws `invalid_queue_options` unless `agents` is a plain record of well-formed names to agents with a
 * `runner.resume` function, and `unknown_agent` when it is empty. @internal
 */
export function checkWorkerAgents(agents: unknown): void {
  if (!isPlainRecord(agents))
    throw new RunQueueError(
      'invalid_queue_options',
      'agents must be a record of agent names to { runner, runOptions }',
    );
  const names = Object.keys(agents);
  if (names.length === 0) throw new RunQueueError('unknown_agent', 'startWorker needs at least one agent');
  for (const name of names) {
    checkAgentName(name, 'an agent name');
    const agent = agents[name] as { runner?: { resume?: unknown } } | null | undefined;
    if (typeof agent?.runner?.resume !== 'function')
      throw new RunQueueError(
        'invalid_queue_options',
        `agent '${name}' must have a runner with resume(runId, options)`,
      );
  }
}

/**
 * The agent named `name` among `agents`, looked up as an own property only (`constructor`, `toString`
 * or `__proto__` is no agent); `undefined` when there is none. @internal
 */
export function agentNamed(agents: Readonly<Record<string, QueueAgent>>, name: string): QueueAgent | undefined {
  return Object.hasOwn(agents, name) ? agents[name] : undefined;
}
