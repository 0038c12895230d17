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
import { approvalFromRow, CreatedRunRows, leasedAtCreation, newRunRecord, RunRow } from '../stored-rows';
import { executorOn } from './postgres-executor';
import { PostgresSqlExecutor } from './postgres-run-store-options';
import { insertPostgresProjection } from './postgres-projection-writes';
import { PostgresRunSession } from './postgres-run-session';

// The runs of a PostgreSQL run store: created, their messages appended or replaced, their status set.

/**
 * Creates a run and, in the same transaction, runs `alsoInTransaction` (see {@link PostgresRunStore.createRunWith});
 * returns the new run's record (built from what was written, not read again) once committed and its chain entries
 * announced.
 */
export async function createPostgresRun(
  session: PostgresRunSession,
  options: CreateRunOptions,
  alsoInTransaction: (db: PostgresSqlExecutor) => Promise<void>,
): Promise<AgentRunRecord> {
  const run = checkNewRun(options);
  const { row, entries, lease } = await session.transaction<CreatedRunRows>({ runId: run.runId }, async (client) => {
    const inserted = await client.query<RunRow>(session.statements.insertRun, [
      run.runId,
      run.status,
      run.metadataJson,
      session.now(),
    ]);
    if (inserted.rowCount !== 1)
      throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
    const [created] = inserted.rows;
    await session.insertMessages(client, run.runId, 0, run.messageTexts);
    const chained = await session.appendChain(client, run.runId, created, [
      runDraft('run_created', runOfRow(created)),
      ...messageDrafts(run.messageTexts, 0),
    ]);
    await alsoInTransaction(executorOn(client));
    if (run.lease === undefined) return { row: created, entries: chained };
    // Leased as `acquireLease` would: nobody else can hold a lease of a run this transaction creates.
    const expiresAtMs = session.nowMs() + run.lease.ttlMs;
    await client.query(session.statements.acquireLease, [run.runId, run.lease.workerId, expiresAtMs, 0]);
    await client.query(session.statements.raiseFencingToken, [run.runId]);
    return leasedAtCreation({ row: created, entries: chained }, run.lease.workerId, expiresAtMs);
  });
  await session.chainer.notify(run.runId, entries);
  return newRunRecord(row, run.messageTexts, lease);
}

/** {@link RunStore.appendMessages} on PostgreSQL: the messages and their projection audits in one write. */
export async function appendPostgresMessages(
  session: PostgresRunSession,
  runId: string,
  messages: readonly ChatMessage[],
  options: AppendMessagesOptions,
): Promise<void> {
  const texts = serializeMessages(runId, messages, options.origin ?? 'other', options.origins);
  await session.write({ runId }, options, async (client, chain) => {
    await session.lockRun(client, runId);
    const first = Number((await session.select(client, 'lastMessageSeq', runId))[0].last);
    for (const projection of options.projections ?? [])
      await insertPostgresProjection(session, client, runId, projection, chain, texts, first);
    await session.insertMessages(client, runId, first, texts);
    chain.push(...messageDrafts(texts, first));
  });
}

/** {@link RunStore.saveMessages} on PostgreSQL. */
export async function savePostgresMessages(
  session: PostgresRunSession,
  runId: string,
  messages: readonly ChatMessage[],
  options?: RunWriteOptions,
): Promise<void> {
  const texts = serializeMessages(runId, messages, 'other');
  await session.write({ runId }, options, async (client, chain) => {
    await session.lockRun(client, runId);
    await client.query(session.statements.deleteMessages, [runId]);
    await session.insertMessages(client, runId, 0, texts);
    chain.push(messagesReplacedDraft(texts.length), ...messageDrafts(texts, 0));
  });
}

/** {@link RunStore.setStatus} on PostgreSQL: cancelling a run cancels its pending approvals in the same write. */
export async function setPostgresStatus(
  session: PostgresRunSession,
  runId: string,
  status: AgentRunStatus,
  options?: SetStatusOptions,
): Promise<SetStatusResult> {
  checkStatus(status);
  const releaseBy = options?.releaseLease;
  if (releaseBy !== undefined) checkId(releaseBy, 'releaseLease');
  return await session.write({ runId }, options, async (client, chain) => {
    // A cancellation reads the approvals it cancels with the run locked first; any other status is one UPDATE.
    if (status === 'cancelled') await session.lockRun(client, runId);
    const pending = status === 'cancelled' ? await session.select(client, 'selectPendingApprovals', runId) : [];
    const updated = await client.query<RunRow>(session.statements.updateStatus, [runId, status]);
    if (updated.rowCount !== 1) throw new RunStoreError('run_not_found', 'No such run', { runId });
    if (status === 'cancelled') await client.query(session.statements.cancelPendingApprovals, [runId]);
    chain.push(runDraft('status_changed', runOfRow(updated.rows[0])));
    for (const row of pending)
      chain.push(approvalDraft('approval_cancelled', approvalFromRow({ ...row, state: 'cancelled' })));
    if (releaseBy === undefined) return { leaseReleased: false };
    const released = await client.query(session.statements.releaseLease, [runId, releaseBy]);
    return { leaseReleased: released.rowCount === 1 };
  });
}
