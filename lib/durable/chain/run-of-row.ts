import type { AgentRunRecord } from '../agent-run-record';
import type { JsonObject } from '../../outcome/json-value';
import type { RunRow } from '../stored-rows';

/** The run's own part of the record (id, status, metadata, creation time), read from its row for the chain. */
export function runOfRow(row: RunRow): Pick<AgentRunRecord, 'runId' | 'status' | 'metadata' | 'createdAt'> {
  return {
    runId: row.run_id,
    status: row.status as AgentRunRecord['status'],
    createdAt: row.created_at,
    ...(row.metadata_json === null ? {} : { metadata: JSON.parse(row.metadata_json) as JsonObject }),
  };
}
