import type { AgentRunRecord } from '../../../durable/agent-run-record';
import { callKey } from '../../../durable/rules/value-rules';
import type { RunInProgress } from '../../run-state';

/**
 * Continues a resumed run's budget from its record: each model response of the record (origin `model`, or
 * `unrecorded` in an older record) is a model request and adds the usage it was stored with, each call the record
 * holds (started or admitted) is a tool call, counted once by its turn and call id, and the wall time counts from the
 * record's creation. Nothing of the budget is stored apart from what the record already holds. @internal
 */
export function restoreBudget(run: RunInProgress, record: AgentRunRecord | undefined): void {
  const ledger = run.control?.ledger;
  if (ledger === undefined || record === undefined) return;
  record.messages.forEach((message, index) => {
    if (message.role !== 'assistant' || record.messageOrigins?.[index] === 'other') return;
    ledger.modelRequests++;
    if (message.usage !== undefined) ledger.addUsage(message.usage);
  });
  for (const call of record.toolCalls) ledger.countedCalls.add(callKey(call.turn, call.callId));
  const createdAtMs = Date.parse(record.createdAt);
  if (Number.isFinite(createdAtMs)) ledger.startedAtMs = Math.min(ledger.startedAtMs, createdAtMs);
}

/** Whether a run records the usage of each model response with its message (a token or cost limit is set). @internal */
export function recordsUsage(run: RunInProgress): boolean {
  return run.control?.ledger?.recordsUsage === true;
}
