import type { AgentRunRecord } from '../durable/agent-run-record';
import { RunQueueError } from './run-queue-error';
import type { QueuedRunMetadata } from './run-queue-types';

// What a run's record says about the queue that started it.

/** Whether the run has ended for good (`completed` or `cancelled`). @internal */
export function isFinal(record: AgentRunRecord): boolean {
  return record.status === 'completed' || record.status === 'cancelled';
}

/**
 * The queue's part of a run's metadata (`metadata.queue`) when a `RunQueue` started the run, else
 * `undefined`. Runs stored before `queueName` / `queueSchema` were recorded lack them. @internal
 */
export function queuedRunMetadataOf(
  record: AgentRunRecord,
): (Partial<QueuedRunMetadata> & { readonly agent: string }) | undefined {
  const queue = record.metadata?.queue;
  if (queue === null || typeof queue !== 'object' || Array.isArray(queue) || typeof queue.agent !== 'string')
    return undefined;
  return {
    agent: queue.agent,
    ...(typeof queue.maxSteps === 'number' ? { maxSteps: queue.maxSteps } : {}),
    ...(typeof queue.queueName === 'string' ? { queueName: queue.queueName } : {}),
    ...(typeof queue.queueSchema === 'string' ? { queueSchema: queue.queueSchema } : {}),
  };
}

/** The agent a queued run was enqueued for, from `metadata.queue.agent`. @internal */
export function agentOf(record: AgentRunRecord): string {
  const agent = queuedRunMetadataOf(record)?.agent;
  if (agent === undefined)
    throw new RunQueueError(
      'unknown_agent',
      `run '${record.runId}' was not enqueued by a RunQueue (no metadata.queue.agent)`,
      { runId: record.runId },
    );
  return agent;
}

/** `metadata.queue.maxSteps` of a queued run, when one was given. @internal */
export function maxStepsOf(record: AgentRunRecord): number | undefined {
  return queuedRunMetadataOf(record)?.maxSteps ?? undefined;
}
