import { AgentRunStatus } from './agent-run-record';
import { ChainedRunRecord } from './chain/record-chain';
import { MemoryRunRows } from './memory-run-rows';
import { RunSummary } from './run-store';
import { chainedRecordFromRows, summaryFromRow } from './stored-rows';

// The reads of a MemoryRunStore, on its runs' rows: the same assembly the SQL stores use for the rows they select.

/** {@link RunStore.exportRun} of a run's rows: its record with its chain (rows read leniently, as stored). */
export function chainedMemoryRecord(rows: MemoryRunRows): ChainedRunRecord {
  return chainedRecordFromRows(
    {
      run: rows.run,
      messages: rows.messages,
      calls: [...rows.calls.values()],
      projections: [...rows.projections.values()],
      approvals: [...rows.approvals.values()],
      chain: rows.chain,
      lease: rows.lease,
    },
    true,
  );
}

/** {@link RunStore.listRuns} of a store's runs: the summary of each, of those with `status` when it is given. */
export function memoryRunSummaries(runs: Iterable<MemoryRunRows>, status?: AgentRunStatus): RunSummary[] {
  return [...runs]
    .filter((state) => status === undefined || state.run.status === status)
    .map((state) => summaryFromRow(state.run));
}
