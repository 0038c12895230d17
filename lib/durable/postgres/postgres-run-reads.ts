import { AgentRunStatus } from '../agent-run-record';
import { ChainedRunRecord } from '../chain/record-chain';
import { RunSummary } from '../run-store';
import { RunStoreStatementRows } from '../sql/run-store-statements';
import { chainedRecordFromRows, summaryFromRow } from '../stored-rows';
import { PostgresRunSession } from './postgres-run-session';

/** {@link RunStore.exportRun} on PostgreSQL: the run's rows, read in one transaction, as its record with its chain. */
export async function readPostgresRun(
  session: PostgresRunSession,
  runId: string,
): Promise<ChainedRunRecord | undefined> {
  return session.read({ runId }, async (client) => {
    const run = (await session.select(client, 'selectRun', runId))[0];
    if (!run) return undefined;
    return chainedRecordFromRows(
      {
        run,
        messages: (await session.select(client, 'selectMessages', runId)).map((row) => row.message_json),
        calls: await session.select(client, 'selectCalls', runId),
        projections: await session.select(client, 'selectProjections', runId),
        approvals: await session.select(client, 'selectApprovals', runId),
        chain: await session.select(client, 'selectChain', runId),
        lease: (await session.select(client, 'selectLease', runId))[0],
      },
      true,
    );
  });
}

/** {@link RunStore.listRuns} on PostgreSQL: the summary of every run, or of those with `status`. */
export async function listPostgresRuns(session: PostgresRunSession, status?: AgentRunStatus): Promise<RunSummary[]> {
  const rows =
    status === undefined
      ? await session.query({}, 'listRuns', [])
      : await session.query({}, 'listRunsByStatus', [status]);
  return (rows as RunStoreStatementRows['listRuns'][]).map(summaryFromRow);
}
