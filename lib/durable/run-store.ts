import { ChatMessage } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import {
  AgentRunRecord,
  AgentRunStatus,
  ApprovalRecord,
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
  ToolOutputProjectionRecord,
} from './agent-run-record';
import type { ChainedRunRecord } from './chain/record-chain';
import type { BudgetKeyStore } from './budget/budget-keys';

/** Options of {@link RunStore.createRun}. */
export interface CreateRunOptions {
  /** @default a random UUID */
  readonly runId?: string;
  /** @default 'running' */
  readonly status?: AgentRunStatus;
  /** Host data kept with the run. */
  readonly metadata?: JsonObject;
  /** The conversation so far; its messages have origin `other` (see `MessageOrigin`). @default [] */
  readonly messages?: readonly ChatMessage[];
  /**
   * Creates the run leased to `workerId` for `ttlMs`, in the same transaction, as if {@link RunStore.acquireLease}
   * followed: the returned record has the `lease` and its fencing token. A worker that creates the run it then
   * executes saves a commit. A store without this option returns a record without `lease`; the caller then
   * acquires the lease as usual. @default not leased
   */
  readonly lease?: RunLeaseRequest;
}

/** A lease asked for by a write: the worker that takes it and for how long. */
export interface RunLeaseRequest {
  readonly workerId: string;
  readonly ttlMs: number;
}

/** Options of {@link RunStore.setStatus}. */
export interface SetStatusOptions extends RunWriteOptions {
  /**
   * Releases the lease `workerId` holds in the same transaction, as if {@link RunStore.releaseLease} followed: a
   * worker's last write of a run saves a commit. The result says whether the lease was released.
   * @default the lease is kept
   */
  readonly releaseLease?: string;
}

/**
 * What {@link RunStore.setStatus} did besides the status: whether it released the lease (`releaseLease`). A store
 * without that option answers nothing, and the caller releases the lease itself.
 */
export interface SetStatusResult {
  readonly leaseReleased: boolean;
}

/**
 * Result of {@link RunStore.recordCallStarted}. `created: true` means this caller recorded the start and may
 * execute the call. `created: false` means a call already holds the call id or the idempotency key (possibly
 * in another run): `call` is that record; execute nothing, use its outcome when `call.status` is `admitted`.
 */
export interface CallStartResult {
  readonly created: boolean;
  readonly call: ToolCallRecord;
}

/** A decision on a pending approval, naming the call it is for. */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** Must equal the tool name of the pending request. */
  readonly toolName: string;
  /** Must equal the arguments hash of the pending request. */
  readonly argumentsSha256: string;
  readonly decidedBy?: string;
  readonly reason?: string;
}

/** A request for approval of one call. */
export interface ApprovalRequest {
  readonly callId: string;
  /** The turn of the call (see {@link ToolCallIdentity.turn}). @default 1 */
  readonly turn?: number;
  readonly toolName: string;
  readonly argumentsSha256: string;
}

/**
 * Options of every write. A worker holding the run's lease passes the lease's fencing token
 * ({@link RunLease.fencingToken}); the store refuses the write with `lease_held`, in the same transaction,
 * when another acquisition has happened since. Without a token the write is not fenced (a host writing
 * outside any lease, e.g. an approval decision).
 */
export interface RunWriteOptions {
  readonly fencingToken?: number;
}

/** Options of the writes that address a stored call by its id: which turn's call it is. */
export interface CallWriteOptions extends RunWriteOptions {
  /** The turn of the call (see {@link ToolCallIdentity.turn}). @default 1 */
  readonly turn?: number;
}

/** Options of {@link RunStore.appendMessages}. */
export interface AppendMessagesOptions extends RunWriteOptions {
  /**
   * Projection audits recorded in the same transaction as the messages (the Tool message and the audit of
   * the content it carries): both are written or neither is. Each is checked as by {@link RunStore.recordProjection}.
   */
  readonly projections?: readonly ToolOutputProjectionInput[];
  /**
   * Who wrote the messages (see `MessageOrigin`). The runner passes `model` for the model's own
   * responses only: a resume runs the tool calls of such a message alone. A host appending messages of its
   * own leaves the default. @default 'other'
   */
  readonly origin?: 'model' | 'other';
  /**
   * The origin of each message, one per message in order, instead of one `origin` for all: the runner writes the
   * Tool messages of a turn (`other`) with the model's next response (`model`) in one transaction. A list of
   * another length, or with another value, is refused with `record_invalid` and nothing is written.
   */
  readonly origins?: readonly ('model' | 'other')[];
}

/** One row of {@link RunStore.listRuns}. */
export interface RunSummary {
  readonly runId: string;
  readonly status: AgentRunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Where agent runs are kept so they survive the process: the conversation, every tool call from the moment it
 * starts, its complete raw outcome once admitted, the projection audit, approvals, status and a lease so one
 * worker at a time executes a run. Every method is atomic: when it throws, nothing was written.
 *
 * Implementations: {@link MemoryRunStore} (tests, one process), {@link durable/sqlite!SqliteRunStore} (one machine),
 * {@link durable/postgres!PostgresRunStore} (several workers).
 */
export interface RunStore {
  /** Creates a run. Throws `run_exists` when the id is taken. */
  createRun(options?: CreateRunOptions): Promise<AgentRunRecord>;

  /**
   * The whole record of a run, or `undefined` when there is none. The record is verified against its hash
   * chain first: a record edited, shortened or extended outside the store throws `record_tampered` naming the
   * first bad entry, and an approval decided without its decision throws `record_invalid`, so nothing of it runs.
   */
  loadRun(runId: string): Promise<AgentRunRecord | undefined>;

  /**
   * The record of a run with its hash chain, as stored and unverified (to inspect a damaged record, or export
   * it: see `runRecordToJsonLines` and `verifyRunRecord`), or `undefined` when there is none.
   */
  exportRun(runId: string): Promise<ChainedRunRecord | undefined>;

  /** Lists runs, oldest first, optionally only those with `status`. */
  listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]>;

  /** Appends messages to the conversation. Throws `run_not_found`. */
  appendMessages(runId: string, messages: readonly ChatMessage[], options?: AppendMessagesOptions): Promise<void>;

  /**
   * Replaces the whole conversation (e.g. after compaction). Every message saved has origin `other`: a tool call
   * of a saved assistant message is history, never run by a resume (see `MessageOrigin`). Throws `run_not_found`.
   */
  saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void>;

  /**
   * Sets the run's status; `cancelled` also cancels the approvals still pending. With `releaseLease`, releases that
   * worker's lease in the same write and says whether it did. Throws `run_not_found`.
   */
  setStatus(runId: string, status: AgentRunStatus, options?: SetStatusOptions): Promise<SetStatusResult | void>;

  /**
   * Records that a call is about to execute; call it before executing, and execute only when the result says
   * `created: true`. Returns the existing call with `created: false` when the call (its turn and call id) is
   * already recorded with the same identity, or the idempotency key is already bound to the same arguments hash (in any
   * run).
   *
   * Throws `run_not_found`; `call_conflict` when the call id is recorded in the same turn with another tool
   * name, arguments hash or idempotency key; `idempotency_conflict` when the key is bound to a different
   * arguments hash. The same call id in another turn is another call. Uniqueness of (run, turn, call id) and of
   * idempotency keys is enforced by the database.
   */
  recordCallStarted(runId: string, identity: ToolCallIdentity, options?: RunWriteOptions): Promise<CallStartResult>;

  /**
   * Raises the attempt count of a started call before a retry, so a crash mid-retry is visible.
   * Never lowers it. Throws `call_not_found`, or `outcome_conflict` when the call is already admitted.
   */
  recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void>;

  /**
   * Admits the complete raw outcome of a started call, before anything is projected for the model. The
   * outcome is stored as its JSON text and read back exactly. Admitting an equal outcome again is a no-op that
   * returns the stored record; a different one throws `outcome_conflict`. Also throws `call_not_found` and
   * `invalid_outcome` (not an outcome, or not JSON-serializable).
   */
  admitOutcome(
    runId: string,
    callId: string,
    outcome: ToolOutcome,
    attempts: number,
    options?: CallWriteOptions,
  ): Promise<ToolCallRecord>;

  /**
   * Looks up the admitted call bound to an idempotency key. Returns `undefined` when the key is unknown or its
   * call has not been admitted yet. Throws `idempotency_conflict` when the key is bound to a different
   * arguments hash: the caller must execute nothing.
   */
  findAdmittedByIdempotencyKey(idempotencyKey: string, argumentsSha256: string): Promise<ToolCallRecord | undefined>;

  /**
   * Records a successful projection of an admitted outcome (its hash and report, not the content).
   * Recording the same projection again is a no-op; binding the call id to different data throws
   * `projection_conflict`. Also throws `call_not_found` and `call_not_admitted`.
   */
  recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord>;

  /**
   * Persists a pending approval for a call. Requesting the same approval again is a no-op returning the
   * stored one; a request for the same call id with another tool name or arguments hash throws
   * `approval_mismatch`. Throws `run_not_found`.
   */
  requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord>;

  /**
   * Decides a pending approval. The decision must name the tool and arguments hash of the request, so it
   * cannot be replayed for other arguments or another call (`approval_mismatch`). Deciding the same way again
   * is a no-op; reversing a decision throws `approval_mismatch`. Throws `approval_not_found`.
   */
  decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord>;

  /**
   * Takes the run's lease for `ttlMs` when no live lease is held by another worker, atomically. Returns true
   * when `workerId` now holds it (re-acquiring one's own lease extends it), false when another worker's lease
   * is live. An expired lease is taken over. Every successful acquisition raises the run's fencing token
   * (read it from {@link RunStore.loadRun}'s `lease`). Throws `run_not_found`.
   */
  acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean>;

  /**
   * Extends the lease for `ttlMs` from now when `workerId` still holds it; false when it was taken over or released.
   */
  renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean>;

  /** Releases the lease when `workerId` holds it; returns whether it did. */
  releaseLease(runId: string, workerId: string): Promise<boolean>;

  /** Releases the store's resources. Later calls throw `store_closed`. */
  close(): Promise<void>;

  /**
   * The budgets of keys shared by runs across processes (the run option `budgetKey`), kept with the runs. Optional:
   * a run with `budgetKey` on a store without it is refused with `invalid_run_options` before any request.
   */
  readonly budgetKeys?: BudgetKeyStore;
}
