import { ChatMessage } from '../model/model-types';
import { toolMessagePartsProblem } from '../model/tool-message-parts';
import { JsonObject, JsonValue } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { splitOrigin } from './message-origins';
import {
  AGENT_RUN_RECORD_SCHEMA_VERSION,
  AgentRunRecord,
  AgentRunStatus,
  ApprovalRecord,
  ApprovalState,
  MessageOrigin,
  ToolCallRecord,
  ToolOutputProjectionRecord,
} from './agent-run-record';
import type { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import type { RunSummary } from './run-store';
import { RunStoreError } from './run-store-error';
import { approvalLineageProblem } from './chain/approval-lineage';
import type { ChainedRunRecord, RecordChainEntry, RecordEntryKind } from './chain/record-chain';

/** The row shapes every store keeps (columns of the SQL tables; the memory store keeps the same objects). */

/** A run row. */
export interface RunRow {
  run_id: string;
  status: string;
  metadata_json: string | null;
  created_at: string;
  updated_at: string;
  /** The fencing token of the latest lease acquisition (0 before the first). */
  fencing_token: number | string;
  /** The digest of the last chain entry (schema version 3); null before the first. */
  chain_head: string | null;
  /** How many chain entries the run has (schema version 3). */
  chain_length: number | string;
}

/** A chain entry row (schema version 3). */
export interface ChainRow {
  seq: number | string;
  kind: string;
  subject: string;
  entity_sha256: string;
  source: string;
  key_id: string | null;
  digest: string;
}

/** A tool call row; JSON columns hold exact text. */
export interface CallRow {
  run_id: string;
  call_id: string;
  tool_name: string;
  idempotency_key: string | null;
  attempts: number | string;
  arguments_sha256: string;
  arguments_json: string;
  status: string;
  outcome_json: string | null;
  started_at: string;
  admitted_at: string | null;
  /** The turn of the call (schema version 2). */
  turn: number | string;
}

/** A projection audit row. */
export interface ProjectionRow {
  call_id: string;
  tool_name: string;
  projected_sha256: string;
  report_json: string;
  recorded_at: string;
  /** The turn of the call (schema version 2). */
  turn: number | string;
  /** See `ToolOutputProjectionRecord.contentSha256` (schema version 3). */
  content_sha256: string | null;
  /** See `ToolOutputProjectionRecord.messageIndex` (schema version 3). */
  message_index: number | string | null;
}

/** An approval row. */
export interface ApprovalRow {
  call_id: string;
  tool_name: string;
  arguments_sha256: string;
  state: string;
  decided_by: string | null;
  reason: string | null;
  requested_at: string;
  decided_at: string | null;
  /** The turn of the call (schema version 2). */
  turn: number | string;
  /** The arguments hash the decision was made on (schema version 3). */
  decided_arguments_sha256: string | null;
}

/** A lease row. */
export interface LeaseRow {
  worker_id: string;
  expires_at_ms: number | string;
}

/** Maps a run row to its {@link RunSummary}. */
export function summaryFromRow(row: RunRow): RunSummary {
  return {
    runId: row.run_id,
    status: row.status as AgentRunStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Maps a call row to its record. */
export function callFromRow(row: CallRow): ToolCallRecord {
  const call: { -readonly [K in keyof ToolCallRecord]: ToolCallRecord[K] } = {
    runId: row.run_id,
    callId: row.call_id,
    turn: Number(row.turn),
    toolName: row.tool_name,
    attempts: Number(row.attempts),
    argumentsSha256: row.arguments_sha256,
    arguments: parseJson(row.arguments_json, row.run_id),
    status: row.status === 'admitted' ? 'admitted' : 'started',
    startedAt: row.started_at,
  };
  if (row.idempotency_key !== null) call.idempotencyKey = row.idempotency_key;
  if (row.outcome_json !== null) {
    call.outcome = parseJson(row.outcome_json, row.run_id) as unknown as ToolOutcome;
    call.outcomeJson = row.outcome_json;
  }
  if (row.admitted_at !== null) call.admittedAt = row.admitted_at;
  return call;
}

/**
 * Maps an approval row to its record. Throws `record_invalid` for an `approved` or `denied` row without its
 * decision (decider, time, arguments hash decided on): a state set by hand is never a decision. `lenient`
 * (a migration chaining the rows as found) maps it anyway.
 */
export function approvalFromRow(row: ApprovalRow, lenient = false): ApprovalRecord {
  const approval: { -readonly [K in keyof ApprovalRecord]: ApprovalRecord[K] } = {
    callId: row.call_id,
    turn: Number(row.turn),
    toolName: row.tool_name,
    argumentsSha256: row.arguments_sha256,
    state: row.state as ApprovalState,
    requestedAt: row.requested_at,
  };
  if (row.decided_by !== null) approval.decidedBy = row.decided_by;
  if (row.reason !== null) approval.reason = row.reason;
  if (row.decided_at !== null) approval.decidedAt = row.decided_at;
  if (row.decided_arguments_sha256 !== null) approval.decidedArgumentsSha256 = row.decided_arguments_sha256;
  const problem = lenient ? undefined : approvalLineageProblem(approval);
  if (problem)
    throw new RunStoreError('record_invalid', `A stored approval is invalid: ${problem}; it is not a decision`, {
      callId: row.call_id,
      turn: approval.turn,
    });
  return approval;
}

/** Maps a projection row to its record. */
export function projectionFromRow(row: ProjectionRow, runId: string): ToolOutputProjectionRecord {
  return {
    callId: row.call_id,
    turn: Number(row.turn),
    toolName: row.tool_name,
    projectedSha256: row.projected_sha256,
    ...(row.content_sha256 === null ? {} : { contentSha256: row.content_sha256 }),
    ...(row.message_index === null ? {} : { messageIndex: Number(row.message_index) }),
    report: parseJson(row.report_json, runId) as unknown as ToolOutputProjectionReport,
    recordedAt: row.recorded_at,
  };
}

/** Maps a chain row to its entry. */
export function chainEntryFromRow(row: ChainRow): RecordChainEntry {
  return {
    index: Number(row.seq),
    kind: row.kind as RecordEntryKind,
    subject: row.subject,
    entitySha256: row.entity_sha256,
    source: row.source as RecordChainEntry['source'],
    ...(row.key_id === null ? {} : { keyId: row.key_id }),
    digest: row.digest,
  };
}

/** The rows of one run with its chain entries. */
export interface ChainedRunRows extends RunRows {
  chain: readonly ChainRow[];
}

/** Assembles a record and its chain from its rows (see {@link recordFromRows}); nothing is verified. */
export function chainedRecordFromRows(rows: ChainedRunRows, lenient = false): ChainedRunRecord {
  const head = rows.run.chain_head;
  return {
    ...recordFromRows(rows, lenient),
    chain: { entries: rows.chain.map(chainEntryFromRow), ...(head === null ? {} : { head }) },
  };
}

/** The rows of one run, read in one consistent snapshot. */
export interface RunRows {
  run: RunRow;
  messages: readonly string[];
  calls: readonly CallRow[];
  projections: readonly ProjectionRow[];
  approvals: readonly ApprovalRow[];
  lease?: LeaseRow;
}

/** What a store's `createRun` transaction wrote: the run's row, its chain entries, and its lease if created leased. */
export interface CreatedRunRows {
  readonly row: RunRow;
  readonly entries: RecordChainEntry[];
  readonly lease?: LeaseRow;
}

/**
 * The rows of a run created leased to `workerId` until `expiresAtMs`, as `acquireLease` leaves them: the lease row, and
 * the run's fencing token raised once (the store raises it in the same transaction).
 */
export function leasedAtCreation(
  created: Omit<CreatedRunRows, 'lease'>,
  workerId: string,
  expiresAtMs: number,
): CreatedRunRows {
  const row = { ...created.row, fencing_token: Number(created.row.fencing_token) + 1 };
  return { row, entries: created.entries, lease: { worker_id: workerId, expires_at_ms: expiresAtMs } };
}

/**
 * The record of a run just created from `row` with the message texts `messages` (and `lease`, when it was created
 * leased): no calls, audits or approvals.
 */
export function newRunRecord(row: RunRow, messages: readonly string[], lease?: LeaseRow): AgentRunRecord {
  return recordFromRows({ run: row, messages, calls: [], projections: [], approvals: [], ...(lease && { lease }) });
}

/**
 * Assembles a record from its rows. Throws `record_invalid` when a JSON column does not parse, or a Tool message's
 * `parts` are malformed.
 */
export function recordFromRows(rows: RunRows, lenient = false): AgentRunRecord {
  const runId = rows.run.run_id;
  const record: { -readonly [K in keyof AgentRunRecord]: AgentRunRecord[K] } = {
    schemaVersion: AGENT_RUN_RECORD_SCHEMA_VERSION,
    runId,
    status: rows.run.status as AgentRunStatus,
    messages: [],
    toolCalls: rows.calls.map(callFromRow),
    toolOutputProjections: rows.projections.map((row) => projectionFromRow(row, runId)),
    approvals: rows.approvals.map((row) => approvalFromRow(row, lenient)),
    createdAt: rows.run.created_at,
    updatedAt: rows.run.updated_at,
  };
  const stored = rows.messages.map((text) => messageFromJson(text, runId));
  record.messages = stored.map((entry) => entry.message);
  record.messageOrigins = stored.map((entry) => entry.origin);
  if (rows.run.metadata_json !== null) record.metadata = parseJson(rows.run.metadata_json, runId) as JsonObject;
  if (rows.lease)
    record.lease = {
      workerId: rows.lease.worker_id,
      expiresAtMs: Number(rows.lease.expires_at_ms),
      fencingToken: Number(rows.run.fencing_token),
    };
  return record;
}

/** A stored message; a Tool message's image parts are checked again, so a damaged row never reaches a model. */
function messageFromJson(text: string, runId: string): { message: ChatMessage; origin: MessageOrigin } {
  const { message: value, origin } = splitOrigin(parseJson(text, runId));
  const message = value as unknown as ChatMessage;
  const problem = message?.role === 'tool' ? toolMessagePartsProblem(message.parts) : undefined;
  if (problem !== undefined)
    throw new RunStoreError('record_invalid', `A stored tool message is malformed: ${problem}`, { runId });
  return { message, origin };
}

function parseJson(text: string, runId: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new RunStoreError('record_invalid', 'A stored JSON column does not parse', { runId, cause: error });
  }
}
