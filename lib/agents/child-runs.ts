import { AgentRunStatus } from '../durable/agent-run-record';
import { RunStore } from '../durable/run-store';
import { AGENT_NAME, PARENT_CALL_ID, PARENT_RUN_ID } from './child-run-id';

/** A child run of a parent run, as {@link childRunsOf} lists it. */
export interface ChildRunSummary {
  readonly runId: string;
  readonly status: AgentRunStatus;
  /** The parent's call that started it. */
  readonly parentCallId: string;
  /** The agent tool's name. */
  readonly agent?: string;
}

/**
 * The child runs an agent tool started for the calls of `parentRunId`, read from the run metadata (`parentRunId`,
 * `parentCallId`): no table of its own. Reads every run's record, so it is meant for tools and tests, not hot paths.
 */
export async function childRunsOf(store: RunStore, parentRunId: string): Promise<readonly ChildRunSummary[]> {
  const children: ChildRunSummary[] = [];
  for (const summary of await store.listRuns()) {
    if (!summary.runId.startsWith(`${parentRunId}/`)) continue;
    const record = await store.loadRun(summary.runId);
    const metadata = record?.metadata;
    if (record === undefined || metadata?.[PARENT_RUN_ID] !== parentRunId) continue;
    const parentCallId = metadata[PARENT_CALL_ID];
    if (typeof parentCallId !== 'string') continue;
    const agent = metadata[AGENT_NAME];
    children.push({
      runId: record.runId,
      status: record.status,
      parentCallId,
      ...(typeof agent === 'string' ? { agent } : {}),
    });
  }
  return children;
}
