import { mergeOwn } from '../../outcome/merge-own';
import { JsonObject } from '../../outcome/json-value';
import { resumesChildRun } from '../../agents/child-run-id';
import { isAgentToolDescriptor } from '../../agents/parent-run-link';
import { AgentRunRecord, AgentRunStatus } from '../../durable/agent-run-record';
import { canonicalArgumentsSha256, sha256Hex } from '../../durable/canonical-arguments';
import { RunLeaseRequest, RunStore, RunWriteOptions } from '../../durable/run-store';
import type { ToolOutputProjectionInput } from '../../durable/agent-run-record';
import { RunStoreError } from '../../durable/run-store-error';
import { ChatMessage } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../../projection/tool-output-projection-result';
import { AbortGrace } from './abort-grace';
import { CallBeginning, conflictRefusal, StoredApproval, unknownOutcome } from './call-beginning';
import { isModelResponse } from '../turn-messages';
import { ToolApprovalDecision, ToolCallRequest } from '../run-options';

/**
 * Writes a run to a {@link RunStore} as it goes: messages, the start of every call before it runs,
 * its complete outcome before anything is projected, the projection audit and approvals. The
 * runner holds one per durable run; runs without a store have none.
 *
 * Fenced by the run's lease: once the lease signal given to {@link RunRecorder.holdLease} aborts
 * (the lease was taken over or could not be renewed), every write throws the lease's reason, so a
 * worker that lost its run writes nothing more into the run another worker now owns. Once the run aborts,
 * each store operation is awaited only until its {@link AbortGrace} runs out (`store_write_abandoned`).
 */
export class RunRecorder {
  /** Tool messages appended but not written yet: the next write takes them first (see `appendMessage`). */
  private readonly heldToolMessages: HeldMessage[] = [];
  private lease?: AbortSignal;
  /** The run as this recorder created it (`createRun`), and the lease it asked for; undefined for a resumed run. */
  created?: { readonly record: AgentRunRecord; readonly lease: RunLeaseRequest };
  /** Carried by every write once the lease is held: the store refuses it when the lease was taken over. */
  private fencing: RunWriteOptions = {};

  /**
   * `grace` bounds every store operation once the run aborts (see {@link AbortGrace}); without it the recorder
   * waits for the store as long as it takes.
   */
  constructor(
    readonly store: RunStore,
    readonly runId: string,
    private readonly grace?: AbortGrace,
  ) {}

  /** Waits for a store operation, at most until the grace after the run's abort runs out. */
  settle<T>(operation: Promise<T>): Promise<T> {
    return this.grace === undefined ? operation : this.grace.guard(operation);
  }

  /**
   * Creates the run in the store, with `metadata` when given, leased to `lease.workerId` in the same write; the
   * record written is kept as {@link RunRecorder.created}, whose `lease` says whether the store took the lease (one
   * without the option does not).
   */
  async createRun(metadata: JsonObject | undefined, lease: RunLeaseRequest): Promise<void> {
    const record = await this.settle(
      this.store.createRun({ runId: this.runId, lease, ...(metadata === undefined ? {} : { metadata }) }),
    );
    this.created = { record, lease };
  }

  /**
   * The lease the store took when it created the run (`createRun` with `lease`): its fencing token and the record
   * written; undefined for a resumed run, or when the store created the run without the lease.
   */
  leaseTakenAtCreation(): { readonly fencingToken: number; readonly record: AgentRunRecord } | undefined {
    const taken = this.created?.record.lease;
    if (this.created === undefined || taken?.workerId !== this.created.lease.workerId) return undefined;
    return { fencingToken: taken.fencingToken, record: this.created.record };
  }

  /**
   * From now on, writes are allowed only while `signal` (the run's lease) has not aborted, and each carries
   * `fencingToken`, so the store itself refuses them (`lease_held`) once another worker acquired the lease.
   */
  holdLease(signal: AbortSignal, fencingToken?: number): void {
    this.lease = signal;
    this.fencing = fencingToken === undefined ? {} : { fencingToken };
  }

  /** Throws the lease's reason when the lease was lost. */
  private fence(): void {
    if (this.lease?.aborted) throw this.lease.reason;
  }

  /** Before a write other than a message: the lease still held, the held Tool messages written first. */
  private async writable(): Promise<void> {
    this.fence();
    await this.flush();
  }

  /**
   * Appends one message to the stored conversation, with origin `model` for a model response (see
   * `isModelResponse`) and `other` for any other. With `report`, the message is a Tool message carrying an
   * admitted outcome's projection, and its audit (hash of the content, report) is stored in the same
   * transaction: the audit never describes content the model did not get.
   *
   * A Tool message is held and written with the next write of the run, in the same transaction as the next message
   * (the model's next response) or before any other write (the run's status): a durable call costs two commits, its
   * start and its admission. Nothing admitted waits: the outcome is admitted before it is projected, and a run
   * interrupted before its Tool messages were written rebuilds them from the admitted outcomes when resumed.
   */
  async appendMessage(
    message: ChatMessage,
    report?: { readonly turn: number; readonly report: ToolOutputProjectionReport },
  ): Promise<void> {
    this.fence();
    const projection =
      report !== undefined && message.role === 'tool'
        ? {
            callId: message.toolCallId,
            turn: report.turn,
            toolName: message.toolName,
            projectedSha256: sha256Hex(message.content),
            report: report.report,
          }
        : undefined;
    const held: HeldMessage = { message, origin: isModelResponse(message) ? 'model' : 'other', projection };
    if (message.role === 'tool') this.heldToolMessages.push(held);
    else await this.writeMessages([held]);
  }

  /** Writes the Tool messages still held (see {@link RunRecorder.appendMessage}); every other write does first. */
  async flush(): Promise<void> {
    if (this.heldToolMessages.length > 0) await this.writeMessages([]);
  }

  /** Writes the held Tool messages and `more` in one transaction, each with its origin and projection audit. */
  private async writeMessages(more: readonly HeldMessage[]): Promise<void> {
    this.fence();
    const written = [...this.heldToolMessages.splice(0), ...more];
    const projections = written.flatMap((held) => (held.projection === undefined ? [] : [held.projection]));
    const origins = written.map((held) => held.origin);
    const origin = origins.every((each) => each === origins[0]) ? { origin: origins[0] } : { origins };
    await this.settle(
      this.store.appendMessages(
        this.runId,
        written.map((held) => held.message),
        mergeOwn(this.fencing, origin, projections.length === 0 ? {} : { projections }),
      ),
    );
  }

  /**
   * Records that a call starts, identified by its turn and call id. A call admitted before is reused; one
   * started but never admitted is re-executed (same call and idempotency key) only when the tool is idempotent,
   * otherwise it is `outcome_unknown` and admitted as such, for reconciliation.
   */
  async beginCall(request: ToolCallRequest, idempotencyKey: string): Promise<CallBeginning> {
    await this.writable();
    const argumentsSha256 = canonicalArgumentsSha256(request.arguments);
    let started;
    try {
      started = await this.settle(
        this.store.recordCallStarted(
          this.runId,
          {
            callId: request.callId,
            turn: request.turn,
            toolName: request.toolName,
            idempotencyKey,
            attempts: 1,
            argumentsSha256,
            arguments: request.arguments,
          },
          this.fencing,
        ),
      );
    } catch (error) {
      const refused = conflictRefusal(error);
      if (refused !== undefined) return refused;
      throw error;
    }
    if (started.created) return { kind: 'execute' };
    const call = started.call;
    if (call.status === 'admitted' && call.outcomeJson !== undefined)
      return { kind: 'reuse', outcome: JSON.parse(call.outcomeJson) as ToolOutcome, attempts: call.attempts };
    if (request.descriptor.idempotency !== 'non_idempotent') return { kind: 'execute' };
    if (
      isAgentToolDescriptor(request.descriptor) &&
      (await resumesChildRun(this.store, this.runId, request.callId, idempotencyKey))
    )
      return { kind: 'execute' };
    const outcome = unknownOutcome(request.toolName);
    this.fence();
    await this.settle(
      this.store.admitOutcome(this.runId, request.callId, outcome, call.attempts, {
        ...this.fencing,
        turn: request.turn,
      }),
    );
    return { kind: 'unknown', outcome, attempts: call.attempts };
  }

  /** Raises the stored attempt count before an attempt, so an interruption mid-retry is visible. */
  async recordAttempt(callId: string, turn: number, attempts: number): Promise<void> {
    await this.writable();
    await this.settle(this.store.recordAttempt(this.runId, callId, attempts, mergeOwn(this.fencing, { turn })));
  }

  /** Admits the complete outcome; runs before anything is projected or sent to the model. */
  async admit(callId: string, turn: number, outcome: ToolOutcome, attempts: number): Promise<void> {
    await this.writable();
    await this.settle(this.store.admitOutcome(this.runId, callId, outcome, attempts, mergeOwn(this.fencing, { turn })));
  }

  /** Links a successful projection to the admitted outcome: hash and report, not the content. */
  async recordProjection(
    callId: string,
    turn: number,
    toolName: string,
    content: string,
    report: ToolOutputProjectionReport,
  ): Promise<void> {
    await this.writable();
    await this.settle(
      this.store.recordProjection(
        this.runId,
        { callId, turn, toolName, projectedSha256: sha256Hex(content), report },
        this.fencing,
      ),
    );
  }

  /**
   * The stored approval of a call (its turn and call id), bound to its tool name and argument hash. Creates a
   * pending request when there is none. A request for the same call with other arguments is denied.
   */
  async approvalOf(request: ToolCallRequest): Promise<StoredApproval> {
    await this.writable();
    try {
      const approval = await this.settle(
        this.store.requestApproval(this.runId, this.approvalRequest(request), this.fencing),
      );
      if (approval.state === 'denied') return { state: 'denied', reason: approval.reason };
      if (approval.state === 'cancelled')
        return { state: 'denied', reason: 'the approval request was cancelled with its run' };
      return { state: approval.state };
    } catch (error) {
      if (RunStoreError.isInstance(error) && error.code === 'approval_mismatch')
        return { state: 'denied', reason: error.message };
      throw error;
    }
  }

  /** Stores a decision an approval handler made in this process, for the audit. */
  async recordDecision(request: ToolCallRequest, decision: ToolApprovalDecision): Promise<void> {
    await this.writable();
    const approvalRequest = this.approvalRequest(request);
    await this.settle(this.store.requestApproval(this.runId, approvalRequest, this.fencing));
    await this.settle(
      this.store.decideApproval(
        this.runId,
        request.callId,
        {
          approved: decision.approved,
          toolName: approvalRequest.toolName,
          argumentsSha256: approvalRequest.argumentsSha256,
          decidedBy: decision.decidedBy,
          reason: decision.reason,
        },
        mergeOwn(this.fencing, { turn: request.turn }),
      ),
    );
  }

  /**
   * Sets the run's status; with `releaseLease` (the worker's id), releases the lease in the same write and answers
   * whether the store did (one without the option does not).
   */
  async setStatus(status: AgentRunStatus, releaseLease?: string): Promise<boolean> {
    await this.writable();
    const options = releaseLease === undefined ? this.fencing : mergeOwn(this.fencing, { releaseLease });
    const written = await this.settle(this.store.setStatus(this.runId, status, options));
    return written?.leaseReleased === true;
  }

  private approvalRequest(request: ToolCallRequest) {
    return {
      callId: request.callId,
      turn: request.turn,
      toolName: request.toolName,
      argumentsSha256: canonicalArgumentsSha256(request.arguments),
    };
  }
}

/** A message on its way to the store: its origin, and the audit of the content a Tool message carries. */
interface HeldMessage {
  readonly message: ChatMessage;
  readonly origin: 'model' | 'other';
  readonly projection?: ToolOutputProjectionInput;
}
