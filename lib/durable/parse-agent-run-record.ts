import { AGENT_RUN_RECORD_SCHEMA_VERSION, AgentRunRecord, MessageOrigin, RunLease } from './agent-run-record';
import { firstTurnOfCallIds } from './call-turns';
import { RunStoreError } from './run-store-error';
import { checkSchemaVersion } from './schema-version';
import { recordShapeProblem } from './record-shape';

/**
 * Reads an {@link AgentRunRecord} from its JSON text or decoded value, e.g. an exported record or a fixture,
 * and brings it to the current schema version: a version-1 record's lease gets fencing token 0, and its calls,
 * projections and approvals the turn of the first assistant message carrying their call id (else 1), as the
 * stores' migration gives them. A record without `messageOrigins` (one written before origins were kept) gets
 * `unrecorded` for every message.
 *
 * Throws `schema_version_mismatch` for a version this build does not know (a newer one included) and
 * `record_invalid`, naming what is wrong, when the value does not have a record's shape: a field the chain hashes or
 * the runner reads of another type (in any message, call, projection audit or approval), or nesting deeper than
 * `MAX_RECORD_DEPTH` (see `recordShapeProblem`). The shape is checked before anything walks or hashes the value.
 */
export function parseAgentRunRecord(input: unknown): AgentRunRecord {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new RunStoreError('record_invalid', 'The record is not JSON', { cause: error });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RunStoreError('record_invalid', 'The record is not an object');
  const record = value as Record<string, unknown>;
  // A list is never a version, and turning a deep one into a number would recurse through it.
  checkSchemaVersion(Array.isArray(record.schemaVersion) ? 'a list' : record.schemaVersion);
  const runId = typeof record.runId === 'string' ? record.runId : undefined;
  const problem = recordShapeProblem(record);
  if (problem) throw new RunStoreError('record_invalid', `The record is malformed: ${problem.reason}`, { runId });
  const messageOrigins =
    (record.messageOrigins as readonly MessageOrigin[] | undefined) ??
    (record.messages as unknown[]).map((): MessageOrigin => 'unrecorded');
  const version = Number(record.schemaVersion);
  const upgraded = withDecisionHashes(
    withTurns({
      ...(record as unknown as AgentRunRecord),
      messageOrigins,
      schemaVersion: AGENT_RUN_RECORD_SCHEMA_VERSION,
    }),
    version,
  );
  const lease = record.lease as Partial<RunLease> | undefined;
  if (lease !== undefined && lease.fencingToken === undefined)
    return { ...upgraded, lease: { ...lease, fencingToken: 0 } as RunLease };
  return upgraded;
}

/**
 * Before version 3 a decision was checked against the request's arguments hash but not stored with it: a
 * decided approval of such a record (one with its decision time) gets that hash, as the stores' migration gives it.
 */
function withDecisionHashes(record: AgentRunRecord, version: number): AgentRunRecord {
  if (version >= 3) return record;
  const decided = (approval: AgentRunRecord['approvals'][number]) =>
    (approval?.state === 'approved' || approval?.state === 'denied') &&
    approval.decidedAt !== undefined &&
    approval.decidedArgumentsSha256 === undefined;
  return {
    ...record,
    approvals: record.approvals.map((approval) =>
      decided(approval) ? { ...approval, decidedArgumentsSha256: approval.argumentsSha256 } : approval,
    ),
  };
}

/** Gives every call, projection and approval without a turn the one its call id has in the messages (else 1). */
function withTurns(record: AgentRunRecord): AgentRunRecord {
  const loose = record as unknown as {
    toolCalls: { callId: string; turn?: number }[];
    toolOutputProjections: { callId: string; turn?: number }[];
    approvals: { callId: string; turn?: number }[];
  };
  if (
    [...loose.toolCalls, ...loose.toolOutputProjections, ...loose.approvals].every(
      (entry) => typeof entry !== 'object' || entry === null || entry.turn !== undefined,
    )
  )
    return record;
  const turns = firstTurnOfCallIds(record.messages);
  const turned = <T extends { callId: string; turn?: number }>(entry: T): T =>
    typeof entry !== 'object' || entry === null || entry.turn !== undefined
      ? entry
      : { ...entry, turn: turns.get(entry.callId) ?? 1 };
  return {
    ...record,
    toolCalls: loose.toolCalls.map(turned),
    toolOutputProjections: loose.toolOutputProjections.map(turned),
    approvals: loose.approvals.map(turned),
  } as unknown as AgentRunRecord;
}
