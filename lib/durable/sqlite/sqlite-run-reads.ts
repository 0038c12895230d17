import { AgentRunStatus } from '../agent-run-record';
import { ChainedRunRecord } from '../chain/record-chain';
import { RunSummary } from '../run-store';
import { chainedRecordFromRows, summaryFromRow } from '../stored-rows';
import { SqliteRunSession } from './sqlite-run-session';

/** {@link RunStore.exportRun} on SQLite: the run's rows, read in one snapshot, as its record with its chain. */
export function readSqliteRun(session: SqliteRunSession, runId: string): ChainedRunRecord | undefined {
  const statements = session.statements;
  return session.read({ runId }, () => {
    const run = statements.select('selectRun', runId)[0];
    if (!run) return undefined;
    return chainedRecordFromRows(
      {
        run,
        messages: statements.select('selectMessages', runId).map((row) => row.message_json),
        calls: statements.select('selectCalls', runId),
        projections: statements.select('selectProjections', runId),
        approvals: statements.select('selectApprovals', runId),
        chain: statements.select('selectChain', runId),
        lease: statements.select('selectLease', runId)[0],
      },
      true,
    );
  });
}

/** {@link RunStore.listRuns} on SQLite: the summary of every run, or of those with `status`. */
export function listSqliteRuns(session: SqliteRunSession, status?: AgentRunStatus): RunSummary[] {
  const statements = session.statements;
  return session.read({}, () =>
    (status === undefined ? statements.select('listRuns') : statements.select('listRunsByStatus', status)).map(
      summaryFromRow,
    ),
  );
}
