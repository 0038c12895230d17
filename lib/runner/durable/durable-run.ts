import { setMaxListeners } from 'node:events';
import { AgentRunRecord } from '../../durable/agent-run-record';
import { callKey } from '../../durable/rules/value-rules';
import { HeldRunLease, holdRunLease, withRunLease } from '../../durable/with-run-lease';
import { RunLeaseRequest } from '../../durable/run-store';
import { ChatMessage, ModelToolCall } from '../../model/model-types';
import { LlmAgentRunResult } from '../run-result';
import { RunInProgress } from '../run-state';
import { LlmAgentError } from '../runner-error';
import { defaultWorkerId, storedStatusOf } from '../runner-rules';
import { messagesOfRecord } from '../turn-messages';
import { RunRecorder } from './run-recorder';

/**
 * Runs a durable run's body under its lease, given the record read once the lease was held, its writes
 * carrying the lease's fencing token; then stores the final status and finishes the run. When the lease
 * is lost mid-run the run's signal aborts, nothing more is written and the call rejects with the lease's
 * reason; a body that fails otherwise leaves the run `failed` (one refused as `run_conflict` keeps its status).
 * @internal
 */
export function runUnderLease(
  run: RunInProgress,
  recorder: RunRecorder,
  body: (record?: AgentRunRecord) => Promise<void>,
  finish: () => LlmAgentRunResult,
): Promise<LlmAgentRunResult> {
  const lease = recorder.created?.lease ?? leaseOf(run);
  const taken = recorder.leaseTakenAtCreation();
  // A run the store created leased to this worker runs under that lease; any other acquires it, then reads the record.
  const underLease = <T>(work: (signal: AbortSignal, held: HeldRunLease) => Promise<T>): Promise<T> =>
    taken === undefined
      ? withRunLease(recorder.store, run.runId, lease, work)
      : holdRunLease(recorder.store, run.runId, lease, taken, work);
  // Bounded once the run aborts: a store that stops answering (the lease, a write, the release) cannot keep it pending.
  return recorder.settle(
    underLease(async (leaseSignal, held) => {
      recorder.holdLease(leaseSignal, held.fencingToken);
      const userSignal = run.options.signal;
      const signal = userSignal === undefined ? leaseSignal : AbortSignal.any([userSignal, leaseSignal]);
      // Every running attempt listens on the run's signal, so a turn of more than ten parallel calls is no leak: the
      // signal is the runner's own, and Node's listener warning would only alarm the host.
      setMaxListeners(0, signal);
      run.options = { ...run.options, signal };
      try {
        await body(held.record);
      } catch (error) {
        if (leaseSignal.aborted) throw leaseSignal.reason;
        if (LlmAgentError.isInstance(error) && error.code === 'run_conflict') throw error;
        await held.lastWrite(() => recorder.setStatus('failed', lease.workerId)).catch(() => undefined);
        throw error;
      }
      await recordExhaustion(run);
      // The status is the run's last write, and it releases the lease with it.
      await held.lastWrite(() => recorder.setStatus(storedStatusOf(run.stopReason), lease.workerId));
      return finish();
    }),
  );
}

/** The lease a durable run takes: its worker id (`workerId`, else one of this process) and duration (`leaseTtlMs`). */
export function leaseOf(run: RunInProgress): RunLeaseRequest {
  return { workerId: run.options.workerId ?? defaultWorkerId(), ttlMs: run.options.leaseTtlMs ?? 60_000 };
}

/**
 * Keeps which limit stopped a run beside its record (the store's `budgetKeys`), before its status says `stopped`:
 * the record of a run that ran out of budget says which budget and limit.
 */
async function recordExhaustion(run: RunInProgress): Promise<void> {
  const exhausted = run.control?.exhausted;
  const keys = run.recorder?.store.budgetKeys;
  if (exhausted === undefined || keys === undefined || run.stopReason !== 'budget_exhausted') return;
  await keys.recordBudgetExhaustion({ runId: run.runId, ...exhausted });
}

/**
 * Takes a stored record into a resumed run: its messages, its step count and turn, and the idempotency keys of
 * its calls. `run_conflict` for a run the store does not have or that ended for good (`completed`, `cancelled`).
 * @internal
 */
export function restoreRecord(run: RunInProgress, record: AgentRunRecord | undefined): void {
  if (record === undefined) throw new LlmAgentError('run_conflict', `no stored run '${run.runId}'`);
  if (record.status === 'completed' || record.status === 'cancelled')
    throw new LlmAgentError('run_conflict', `run '${run.runId}' is ${record.status} and cannot be resumed`);
  run.messages.push(...messagesOfRecord(record));
  run.steps = record.messages.filter((message) => message.role === 'assistant').length;
  run.turn = run.steps;
  run.recordedKeys = new Map(
    record.toolCalls.flatMap((call) =>
      call.idempotencyKey === undefined ? [] : [[callKey(call.turn, call.callId), call.idempotencyKey]],
    ),
  );
}

/**
 * The last assistant message of a history, whether it is the last message, and its calls no Tool message after it
 * answers. @internal
 */
export interface LastTurn {
  readonly assistant: Extract<ChatMessage, { role: 'assistant' }>;
  readonly isLastMessage: boolean;
  readonly pending: readonly ModelToolCall[];
}

/**
 * The last turn of a history, or undefined when it has no assistant message. Only the Tool messages after that
 * assistant message answer its calls: a call id answered in an earlier turn may be reused. @internal
 */
export function lastTurnOf(messages: readonly ChatMessage[]): LastTurn | undefined {
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[index];
  if (assistant === undefined || assistant.role !== 'assistant') return undefined;
  const answered = new Set(
    messages.slice(index + 1).flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])),
  );
  return {
    assistant,
    isLastMessage: index === messages.length - 1,
    pending: assistant.toolCalls.filter((call) => !answered.has(call.id)),
  };
}
