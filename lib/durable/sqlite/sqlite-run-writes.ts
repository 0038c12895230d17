import { ChatMessage } from '../../model/model-types';
import { AgentRunRecord, AgentRunStatus } from '../agent-run-record';
import { approvalDraft, messageDrafts, messagesReplacedDraft, runDraft } from '../chain/chain-entities';
import { runOfRow } from '../chain/run-of-row';
import {
  AppendMessagesOptions,
  CreateRunOptions,
  RunWriteOptions,
  SetStatusOptions,
  SetStatusResult,
} from '../run-store';
import { RunStoreError } from '../run-store-error';
import { checkNewRun, serializeMessages } from '../rules/run-rules';
import { checkId, checkStatus } from '../rules/value-rules';
import { approvalFromRow, CreatedRunRows, leasedAtCreation, newRunRecord } from '../stored-rows';
import { insertSqliteProjection } from './sqlite-projection-writes';
import { SqliteRunSession } from './sqlite-run-session';

// The runs of a SQLite run store: created, their messages appended or replaced, their status set.

/**
 * Creates a run; returns its record (built from what was written, not read again) once committed and its chain
 * entries announced.
 */
export async function createSqliteRun(session: SqliteRunSession, options: CreateRunOptions): Promise<AgentRunRecord> {
  const run = checkNewRun(options);
  const statements = session.statements;
  const { row, entries, lease } = session.transaction<CreatedRunRows>({ runId: run.runId }, () => {
    if (statements.exists('runExists', run.runId))
      throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
    statements.run('insertRun', run.runId, run.status, run.metadataJson, session.now());
    session.insertMessages(run.runId, 0, run.messageTexts);
    const created = statements.select('selectRun', run.runId)[0];
    const drafts = [runDraft('run_created', runOfRow(created)), ...messageDrafts(run.messageTexts, 0)];
    const chained = session.appendChain(created, drafts);
    if (run.lease === undefined) return { row: created, entries: chained };
    // Leased as `acquireLease` would: nobody else can hold a lease of a run this transaction creates.
    const expiresAtMs = session.nowMs() + run.lease.ttlMs;
    statements.run('acquireLease', run.runId, run.lease.workerId, expiresAtMs, 0);
    statements.run('raiseFencingToken', run.runId);
    return leasedAtCreation({ row: created, entries: chained }, run.lease.workerId, expiresAtMs);
  });
  await session.chainer.notify(run.runId, entries);
  return newRunRecord(row, run.messageTexts, lease);
}

/** {@link RunStore.appendMessages} on SQLite: the messages and their projection audits in one write. */
export async function appendSqliteMessages(
  session: SqliteRunSession,
  runId: string,
  messages: readonly ChatMessage[],
  options: AppendMessagesOptions,
): Promise<void> {
  const texts = serializeMessages(runId, messages, options.origin ?? 'other', options.origins);
  await session.write({ runId }, options, (chain) => {
    const first = Number(session.statements.select('lastMessageSeq', runId)[0].last);
    for (const projection of options.projections ?? [])
      insertSqliteProjection(session, runId, projection, chain, texts, first);
    session.insertMessages(runId, first, texts);
    chain.push(...messageDrafts(texts, first));
  });
}

/** {@link RunStore.saveMessages} on SQLite. */
export async function saveSqliteMessages(
  session: SqliteRunSession,
  runId: string,
  messages: readonly ChatMessage[],
  options?: RunWriteOptions,
): Promise<void> {
  const texts = serializeMessages(runId, messages, 'other');
  await session.write({ runId }, options, (chain) => {
    session.statements.run('deleteMessages', runId);
    session.insertMessages(runId, 0, texts);
    chain.push(messagesReplacedDraft(texts.length), ...messageDrafts(texts, 0));
  });
}

/** {@link RunStore.setStatus} on SQLite: cancelling a run cancels its pending approvals in the same write. */
export async function setSqliteStatus(
  session: SqliteRunSession,
  runId: string,
  status: AgentRunStatus,
  options?: SetStatusOptions,
): Promise<SetStatusResult> {
  checkStatus(status);
  const releaseBy = options?.releaseLease;
  if (releaseBy !== undefined) checkId(releaseBy, 'releaseLease');
  const statements = session.statements;
  return await session.write({ runId }, options, (chain) => {
    const pending = status === 'cancelled' ? statements.select('selectPendingApprovals', runId) : [];
    statements.run('updateStatus', runId, status);
    if (status === 'cancelled') statements.run('cancelPendingApprovals', runId);
    chain.push(runDraft('status_changed', runOfRow(statements.select('selectRun', runId)[0])));
    for (const row of pending)
      chain.push(approvalDraft('approval_cancelled', approvalFromRow({ ...row, state: 'cancelled' })));
    return { leaseReleased: releaseBy !== undefined && statements.run('releaseLease', runId, releaseBy) === 1 };
  });
}
