import { ChatMessage } from '../../model/model-types';
import { AgentRunStatus } from '../agent-run-record';
import { approvalDraft, messageDrafts, messagesReplacedDraft, runDraft } from '../chain/chain-entities';
import { RecordChainEntry } from '../chain/record-chain';
import { runOfRow } from '../chain/run-of-row';
import { AppendMessagesOptions, CreateRunOptions, RunWriteOptions } from '../run-store';
import { RunStoreError } from '../run-store-error';
import { checkNewRun, serializeMessages } from '../rules/run-rules';
import { checkStatus } from '../rules/value-rules';
import { approvalFromRow } from '../stored-rows';
import { executorOn } from './postgres-executor';
import { PostgresSqlExecutor } from './postgres-run-store-options';
import { insertPostgresProjection } from './postgres-projection-writes';
import { PostgresRunSession } from './postgres-run-session';

// The runs of a PostgreSQL run store: created, their messages appended or replaced, their status set.

/**
 * Creates a run and, in the same transaction, runs `alsoInTransaction` (see {@link PostgresRunStore.createRunWith});
 * returns the run's id once committed and its chain entries announced.
 */
export async function createPostgresRun(
  session: PostgresRunSession,
  options: CreateRunOptions,
  alsoInTransaction: (db: PostgresSqlExecutor) => Promise<void>,
): Promise<string> {
  const run = checkNewRun(options);
  const entries = await session.transaction({ runId: run.runId }, async (client): Promise<RecordChainEntry[]> => {
    const inserted = await client.query(session.statements.insertRun, [
      run.runId,
      run.status,
      run.metadataJson,
      session.now(),
    ]);
    if (inserted.rowCount !== 1)
      throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
    await session.insertMessages(client, run.runId, 0, run.messageTexts);
    const row = (await session.select(client, 'selectRun', run.runId))[0];
    const chained = await session.appendChain(client, row, [
      runDraft('run_created', runOfRow(row)),
      ...messageDrafts(run.messageTexts, 0),
    ]);
    await alsoInTransaction(executorOn(client));
    return chained;
  });
  await session.chainer.notify(run.runId, entries);
  return run.runId;
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
  options?: RunWriteOptions,
): Promise<void> {
  checkStatus(status);
  await session.write({ runId }, options, async (client, chain) => {
    await session.lockRun(client, runId);
    const pending = status === 'cancelled' ? await session.select(client, 'selectPendingApprovals', runId) : [];
    await client.query(session.statements.updateStatus, [runId, status]);
    if (status === 'cancelled') await client.query(session.statements.cancelPendingApprovals, [runId]);
    chain.push(runDraft('status_changed', runOfRow((await session.select(client, 'selectRun', runId))[0])));
    for (const row of pending)
      chain.push(approvalDraft('approval_cancelled', approvalFromRow({ ...row, state: 'cancelled' })));
  });
}
