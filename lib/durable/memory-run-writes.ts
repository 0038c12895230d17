import { ChatMessage } from '../model/model-types';
import { AgentRunStatus } from './agent-run-record';
import { ChainDraft } from './chain/chain-digest';
import { approvalDraft, messageDrafts, projectionDraft, runDraft } from './chain/chain-entities';
import { runOfRow } from './chain/run-of-row';
import { MemoryCallWrite } from './memory-call-writes';
import { releaseMemoryLease } from './memory-leases';
import { cancelPendingApprovals, checkedMemoryProjection, MemoryRunRows } from './memory-run-rows';
import { serializeMessages } from './rules/run-rules';
import { callKey, isoTime } from './rules/value-rules';
import { AppendMessagesOptions, SetStatusResult } from './run-store';
import { approvalFromRow, projectionFromRow } from './stored-rows';

// The run writes of a MemoryRunStore (messages, status), on a run's rows whose fence the caller checked: each
// answers the chain entries the store commits with it.

/**
 * {@link RunStore.appendMessages} on a run's rows: the messages and their projection audits, stored together or not
 * at all; `clock` dates each audit.
 */
export function appendMemoryMessages(
  rows: MemoryRunRows,
  messages: readonly ChatMessage[],
  options: AppendMessagesOptions,
  clock: () => number,
): ChainDraft[] {
  const runId = rows.run.run_id;
  const texts = serializeMessages(runId, messages, options.origin ?? 'other', options.origins);
  // Every check before any change: the messages and their projection audits are stored together or not at all.
  const audits = (options.projections ?? []).map((projection) =>
    checkedMemoryProjection(rows, projection, isoTime(clock), texts),
  );
  for (const audit of audits)
    if (audit.row) rows.projections.set(callKey(Number(audit.row.turn), audit.row.call_id), audit.row);
  const first = rows.messages.length;
  rows.messages.push(...texts);
  return [
    ...audits.filter((audit) => audit.row).map((audit) => projectionDraft(projectionFromRow(audit.row!, runId))),
    ...messageDrafts(texts, first),
  ];
}

/**
 * {@link RunStore.setStatus} on a run's rows: `cancelled` cancels the pending approvals; the lease of `releaseBy`
 * is released.
 */
export function setMemoryStatus(
  rows: MemoryRunRows,
  status: AgentRunStatus,
  releaseBy: string | undefined,
): MemoryCallWrite<SetStatusResult> {
  rows.run.status = status;
  const drafts: ChainDraft[] = [runDraft('status_changed', runOfRow(rows.run))];
  if (status === 'cancelled')
    for (const approval of cancelPendingApprovals(rows))
      drafts.push(approvalDraft('approval_cancelled', approvalFromRow(approval)));
  const leaseReleased = releaseBy !== undefined && releaseMemoryLease(rows, releaseBy);
  return { result: { leaseReleased }, drafts };
}
