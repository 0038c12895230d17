import { ChatMessage } from '../model/model-types';
import { JsonObject, JsonValue } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import type { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';

/** Schema version of {@link AgentRunRecord} and of the SQL layouts this build writes. */
export const AGENT_RUN_RECORD_SCHEMA_VERSION = 3;

/**
 * Who wrote a stored message. `model`: a model response of the run, recorded by the runner (only the tool
 * calls of such a message may ever run, on a resume). `other`: anything else: the input of `complete()` and
 * `stream()`, a continued conversation, the runner's Tool messages and prompts, `createRun`,
 * `saveMessages` and a host's own `appendMessages`. `unrecorded`: a message stored before origins were kept
 * (read as before: the last assistant turn of such a record is taken as the model's).
 */
export type MessageOrigin = 'model' | 'other' | 'unrecorded';

/**
 * Status of a run. `completed` (the model gave its final answer) and `cancelled` end it. `stopped` means the
 * run reached its step limit (`maxSteps`) without a final answer (schema version 2); it, `failed`, `running`
 * and `awaiting_approval` can be resumed.
 */
export type AgentRunStatus = 'running' | 'awaiting_approval' | 'completed' | 'stopped' | 'failed' | 'cancelled';

/** Every {@link AgentRunStatus}, in lifecycle order. */
export const AGENT_RUN_STATUSES: readonly AgentRunStatus[] = Object.freeze([
  'running',
  'awaiting_approval',
  'completed',
  'stopped',
  'failed',
  'cancelled',
]);

/** What identifies one tool call before it runs; recorded by {@link wuwe!RunStore.recordCallStarted}. */
export interface ToolCallIdentity {
  /** The model's tool call id, unique within its turn. */
  readonly callId: string;
  /**
   * The turn that asked for the call: the ordinal (from 1) of the assistant message carrying it. A call is
   * identified by (run, turn, call id), so a model that sends `call_0` in every turn gets a new call each turn
   * (schema version 2). @default 1
   */
  readonly turn?: number;
  /** Name of the tool called. */
  readonly toolName: string;
  /** Key under which the effect may be performed at most once, across all runs of the store. */
  readonly idempotencyKey?: string;
  /** Attempts made so far, counting the one about to start. */
  readonly attempts: number;
  /** {@link canonicalArgumentsSha256} of `arguments`. */
  readonly argumentsSha256: string;
  /** The decoded arguments the tool receives. */
  readonly arguments: JsonValue;
}

/**
 * A tool call as the store holds it. `started` means execution may have begun and no outcome was admitted:
 * after a crash its effect is unknown. `admitted` means `outcome` is the complete raw result.
 */
export interface ToolCallRecord extends ToolCallIdentity {
  /** The run the call belongs to. */
  readonly runId: string;
  /**
   * The turn that asked for the call (a version-1 record's calls get the turn of the first assistant message carrying
   * their id).
   */
  readonly turn: number;
  /** `started` before the outcome is admitted, `admitted` after. */
  readonly status: 'started' | 'admitted';
  /** The complete raw outcome, once admitted (parsed from `outcomeJson`). */
  readonly outcome?: ToolOutcome;
  /** The exact JSON text the outcome was admitted as; returned unchanged on every read. */
  readonly outcomeJson?: string;
  /** When the call was recorded as started (ISO 8601). */
  readonly startedAt: string;
  /** When the outcome was admitted (ISO 8601). */
  readonly admittedAt?: string;
}

/** A projection to record: the call, the SHA-256 of the projected Tool message content and the report. */
export interface ToolOutputProjectionInput {
  readonly callId: string;
  /** The turn of the call (see {@link ToolCallIdentity.turn}). @default 1 */
  readonly turn?: number;
  readonly toolName: string;
  /** Lowercase hex SHA-256 of the projected content's UTF-8 bytes (the content itself is not stored). */
  readonly projectedSha256: string;
  /** The projection module's report, stored as given. */
  readonly report: ToolOutputProjectionReport;
  /**
   * Lowercase hex SHA-256 of everything the Tool message showed the model: the canonical JSON of its text,
   * error flag and every part, images included (`toolContentSha256`). Set by the store when the audit is
   * written with its Tool message (schema version 3); a given value is ignored.
   */
  readonly contentSha256?: string;
  /** Index in `messages` of the Tool message the audit describes, when written with it (schema version 3). */
  readonly messageIndex?: number;
}

/** Audit entry linking a successful projection to its admitted raw outcome. */
export interface ToolOutputProjectionRecord extends ToolOutputProjectionInput {
  /** The turn of the call. */
  readonly turn: number;
  /** When the projection was first recorded (ISO 8601). */
  readonly recordedAt: string;
}

/** State of an approval. A request still pending when its run is cancelled becomes `cancelled` (schema version 2). */
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'cancelled';

/** An approval of one call, bound to the call (turn and call id), tool name and arguments hash it was requested for. */
export interface ApprovalRecord {
  readonly callId: string;
  /** The turn of the call (see {@link ToolCallIdentity.turn}). */
  readonly turn: number;
  readonly toolName: string;
  readonly argumentsSha256: string;
  readonly state: ApprovalState;
  /** Who decided: required of an `approved` or `denied` approval (schema version 3), else the record is invalid. */
  readonly decidedBy?: string;
  /** Why, when given. */
  readonly reason?: string;
  /** When the approval was requested (ISO 8601). */
  readonly requestedAt: string;
  /** When it was decided (ISO 8601); required of an `approved` or `denied` approval. */
  readonly decidedAt?: string;
  /**
   * The SHA-256 of the arguments presented and decided on; required of an `approved` or `denied` approval and
   * equal to `argumentsSha256` (schema version 3). A state set without a decision is `record_invalid` on read.
   */
  readonly decidedArgumentsSha256?: string;
}

/** The worker that may execute a run, until `expiresAt`. */
export interface RunLease {
  readonly workerId: string;
  /** Expiry as milliseconds since the epoch, by the store's clock. */
  readonly expiresAtMs: number;
  /**
   * The fencing token of the current acquisition: it grows with every successful `acquireLease`. Writes that
   * carry an older token are refused with `lease_held` (schema version 2).
   */
  readonly fencingToken: number;
}

/**
 * The durable record of one agent run: conversation, tool calls with their raw outcomes, projection audit,
 * approvals and lease. JSON-serializable; `schemaVersion` says which layout it has.
 */
export interface AgentRunRecord {
  readonly schemaVersion: number;
  readonly runId: string;
  readonly status: AgentRunStatus;
  /** Host data given at creation (e.g. which agent or model). */
  readonly metadata?: JsonObject;
  /** The conversation, in order. Tool messages hold the projected content the model saw. */
  readonly messages: readonly ChatMessage[];
  /**
   * The origin of each message, in the same order (see {@link MessageOrigin}). A store always gives it; a
   * record without it (an exported record of an older build) has every message `unrecorded`.
   */
  readonly messageOrigins?: readonly MessageOrigin[];
  /** Tool calls in the order they were started. */
  readonly toolCalls: readonly ToolCallRecord[];
  /** One entry per successfully projected call, in the order recorded. */
  readonly toolOutputProjections: readonly ToolOutputProjectionRecord[];
  /** Approvals in the order requested. */
  readonly approvals: readonly ApprovalRecord[];
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601, moved by every change except lease operations. */
  readonly updatedAt: string;
  /** The current lease, when one was taken and not released (it may have expired). */
  readonly lease?: RunLease;
}
