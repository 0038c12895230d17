import type { AgentRunRecord } from '../durable/agent-run-record';
import type { RunStore } from '../durable/run-store';
import { childRunIdOf, PARENT_CALL_ID, PARENT_RUN_ID } from '../agents/child-run-id';
import { RunQueueError } from './run-queue-error';

/**
 * The run a queue resumes for `record`: the record itself, or for a child run of an agent tool the root of its tree,
 * which the queue enqueued (resuming the root runs its agent call again, which resumes the child). Each link up the
 * tree is checked against what the runner recorded: the parent holds the call the child names, and the child's id is
 * the one derived from that call's idempotency key. Metadata that claims a parent without such a call is
 * `job_mismatch`: the queue resumes no run on a link it did not make.
 */
export async function queuedRootOf(store: RunStore, record: AgentRunRecord): Promise<AgentRunRecord> {
  const seen = new Set<string>();
  let current = record;
  for (;;) {
    const parentRunId = current.metadata?.[PARENT_RUN_ID];
    if (parentRunId === undefined) return current;
    const callId = current.metadata?.[PARENT_CALL_ID];
    const parent =
      typeof parentRunId === 'string' && typeof callId === 'string' && !seen.has(parentRunId)
        ? await store.loadRun(parentRunId)
        : undefined;
    const started = parent?.toolCalls.some(
      (call) =>
        call.callId === callId &&
        typeof call.idempotencyKey === 'string' &&
        childRunIdOf(parent.runId, call.callId, call.idempotencyKey) === current.runId,
    );
    if (parent === undefined || started !== true)
      throw new RunQueueError(
        'job_mismatch',
        `run '${current.runId}' names parent run ${JSON.stringify(parentRunId)}, which holds no call that started it; nothing was enqueued`,
        { runId: record.runId },
      );
    seen.add(current.runId);
    current = parent;
  }
}
