import { ChatMessage } from '../model/model-types';
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
import { checkAttempts, checkId, checkStatus, checkTtl, isoTime } from './rules/value-rules';
import { checkFence, checkNewRun, serializeMessages } from './rules/run-rules';
import { checkIdempotentArguments } from './rules/call-rules';
import { admitMemoryOutcome, attemptMemoryCall, auditMemoryProjection, startMemoryCall } from './memory-call-writes';
import { decideMemoryApproval, requestMemoryApproval } from './memory-approval-writes';
import {
  AppendMessagesOptions,
  ApprovalDecision,
  ApprovalRequest,
  CallStartResult,
  CallWriteOptions,
  CreateRunOptions,
  RunStore,
  RunSummary,
  RunWriteOptions,
  SetStatusOptions,
  SetStatusResult,
} from './run-store';
import { RunStoreError } from './run-store-error';
import { approvalFromRow, callFromRow, CallRow, newRunRecord } from './stored-rows';
import { ChainDraft } from './chain/chain-digest';
import { messageDrafts, messagesReplacedDraft, runDraft } from './chain/chain-entities';
import { ChainedRunRecord, RecordChainOptions } from './chain/record-chain';
import { runOfRow } from './chain/run-of-row';
import { chainRowOf, MemoryRunRows, newMemoryRun } from './memory-run-rows';
import { chainedMemoryRecord, memoryRunSummaries } from './memory-run-reads';
import { acquireMemoryLease, releaseMemoryLease, renewMemoryLease } from './memory-leases';
import { appendMemoryMessages, setMemoryStatus } from './memory-run-writes';
import { RecordChainer } from './chain/record-chainer';
import type { JsonObject } from '../outcome/json-value';
import { MemoryRunEvents } from './run-events/memory-run-events';
import type {
  AppendRunEventsOptions,
  KeptRunEvent,
  ReadRunEventsOptions,
  RunEventLog,
} from './run-events/run-event-log';
import type { BudgetKeyStore } from './budget/budget-keys';
import { MemoryBudgetKeys } from './budget/memory-budget-keys';

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions extends RecordChainOptions {
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
}

/**
 * A {@link RunStore} in process memory: the reference behaviour of the other stores, and the baseline of
 * their benchmarks. Runs are lost with the process. Stored JSON is kept as text, so reads return the exact
 * admitted outcome text like the SQL stores do.
 */
export class MemoryRunStore implements RunStore, RunEventLog {
  private readonly runs = new Map<string, MemoryRunRows>();
  private readonly idempotencyKeys = new Map<string, CallRow>();
  private readonly clock: () => number;
  private readonly chainer: RecordChainer;
  private closed = false;
  private readonly events: MemoryRunEvents;
  /** The budgets of keys shared by this store's runs (see {@link RunStore.budgetKeys}). */
  readonly budgetKeys: BudgetKeyStore;

  constructor(options: MemoryRunStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.chainer = new RecordChainer(options);
    this.events = new MemoryRunEvents(() => isoTime(this.clock));
    this.budgetKeys = new MemoryBudgetKeys(this.clock, () => this.open());
  }

  /** {@inheritDoc RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    this.open();
    const run = checkNewRun(options);
    if (this.runs.has(run.runId))
      throw new RunStoreError('run_exists', 'A run with this id exists', { runId: run.runId });
    const state = newMemoryRun(run, isoTime(this.clock));
    this.runs.set(run.runId, state);
    if (run.lease !== undefined) acquireMemoryLease(state, run.lease.workerId, run.lease.ttlMs, this.clock());
    const lease = state.lease && { ...state.lease };
    await this.commit(state, [runDraft('run_created', runOfRow(state.run)), ...messageDrafts(run.messageTexts, 0)]);
    return newRunRecord({ ...state.run }, run.messageTexts, lease);
  }

  /** {@inheritDoc RunStore.loadRun} */
  async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    const record = await this.exportRun(runId);
    return record && this.chainer.verified(record);
  }

  /** {@inheritDoc RunStore.exportRun} */
  async exportRun(runId: string): Promise<ChainedRunRecord | undefined> {
    this.open();
    const state = this.runs.get(runId);
    if (!state) return undefined;
    return chainedMemoryRecord(state);
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    this.open();
    return memoryRunSummaries(this.runs.values(), status);
  }

  /** {@inheritDoc RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    const state = this.state(runId, options);
    await this.commit(state, appendMemoryMessages(state, messages, options, this.clock));
  }

  /** {@inheritDoc RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    const state = this.state(runId, options);
    state.messages = serializeMessages(runId, messages, 'other');
    await this.commit(state, [messagesReplacedDraft(state.messages.length), ...messageDrafts(state.messages, 0)]);
  }

  /** {@inheritDoc RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: SetStatusOptions): Promise<SetStatusResult> {
    checkStatus(status);
    const releaseBy = options?.releaseLease;
    if (releaseBy !== undefined) checkId(releaseBy, 'releaseLease');
    const state = this.state(runId, options);
    const { result, drafts } = setMemoryStatus(state, status, releaseBy);
    await this.commit(state, drafts);
    return result;
  }

  /** {@inheritDoc RunStore.recordCallStarted} */
  async recordCallStarted(
    runId: string,
    identity: ToolCallIdentity,
    options?: RunWriteOptions,
  ): Promise<CallStartResult> {
    const state = this.state(runId, options);
    const { result, drafts } = startMemoryCall(state, this.idempotencyKeys, identity, isoTime(this.clock));
    if (drafts.length > 0) await this.commit(state, drafts);
    return result;
  }

  /** {@inheritDoc RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    checkAttempts(attempts);
    const state = this.state(runId, options);
    await this.commit(state, attemptMemoryCall(state, callId, attempts, options?.turn));
  }

  /** {@inheritDoc RunStore.admitOutcome} */
  async admitOutcome(
    runId: string,
    callId: string,
    outcome: ToolOutcome,
    attempts: number,
    options?: CallWriteOptions,
  ): Promise<ToolCallRecord> {
    const state = this.state(runId, options);
    const admission = { outcome, attempts, turn: options?.turn };
    const { result, drafts } = admitMemoryOutcome(state, callId, admission, isoTime(this.clock));
    if (drafts.length > 0) await this.commit(state, drafts);
    return result;
  }

  /** {@inheritDoc RunStore.findAdmittedByIdempotencyKey} */
  async findAdmittedByIdempotencyKey(
    idempotencyKey: string,
    argumentsSha256: string,
  ): Promise<ToolCallRecord | undefined> {
    this.open();
    const row = this.idempotencyKeys.get(idempotencyKey);
    if (!row) return undefined;
    const call = callFromRow(row);
    checkIdempotentArguments(call, argumentsSha256);
    return call.status === 'admitted' ? call : undefined;
  }

  /** {@inheritDoc RunStore.recordProjection} */
  async recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord> {
    const state = this.state(runId, options);
    const { result, drafts } = auditMemoryProjection(state, projection, isoTime(this.clock));
    if (drafts.length > 0) await this.commit(state, drafts);
    return result;
  }

  /** {@inheritDoc RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    const state = this.state(runId, options);
    const { result, drafts } = requestMemoryApproval(state, request, this.clock);
    if (drafts.length > 0) await this.commit(state, drafts);
    return approvalFromRow(result);
  }

  /** {@inheritDoc RunStore.decideApproval} */
  async decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord> {
    const state = this.state(runId, options);
    const { result, drafts } = decideMemoryApproval(state, callId, decision, options?.turn, this.clock);
    if (drafts.length > 0) await this.commit(state, drafts);
    return approvalFromRow(result);
  }

  /** {@inheritDoc RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    checkId(workerId, 'workerId');
    checkTtl(ttlMs);
    return acquireMemoryLease(this.state(runId), workerId, ttlMs, this.clock());
  }

  /** {@inheritDoc RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return renewMemoryLease(this.state(runId), workerId, this.clock() + ttlMs);
  }

  /** {@inheritDoc RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    return releaseMemoryLease(this.state(runId), workerId);
  }

  /** {@inheritDoc durable!RunEventLog.appendRunEvents} */
  async appendRunEvents(
    runId: string,
    events: readonly JsonObject[],
    options: AppendRunEventsOptions,
  ): Promise<number> {
    this.open();
    return this.events.append(runId, events, options, this.runs.has(runId));
  }

  /** {@inheritDoc durable!RunEventLog.readRunEvents} */
  async readRunEvents(runId: string, options?: ReadRunEventsOptions): Promise<readonly KeptRunEvent[]> {
    this.open();
    return this.events.read(runId, options);
  }

  /**
   * `waitForRunEvents` of {@link durable!RunEventLog.waitForRunEvents}: a subscription: woken by the append.
   */
  async waitForRunEvents(runId: string, after: number, signal?: AbortSignal): Promise<void> {
    this.open();
    return this.events.wait(runId, after, signal);
  }

  /** {@inheritDoc RunStore.close} */
  async close(): Promise<void> {
    this.closed = true;
    this.events.wakeAll();
  }

  private open(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }

  /** The run's state; with write options, only when their fencing token is current. */
  private state(runId: string, options?: RunWriteOptions): MemoryRunRows {
    this.open();
    const state = this.runs.get(runId);
    if (!state) throw new RunStoreError('run_not_found', 'No such run', { runId });
    checkFence(runId, state.run.fencing_token, options);
    return state;
  }

  /** Moves the run's `updated_at`, appends the entries of `drafts` to its chain and moves the head. */
  private async commit(state: MemoryRunRows, drafts: readonly ChainDraft[]): Promise<void> {
    state.run.updated_at = isoTime(this.clock);
    const entries = this.chainer.entries(
      state.run.run_id,
      { head: state.run.chain_head, length: state.chain.length },
      drafts,
    );
    state.chain.push(...entries.map(chainRowOf));
    state.run.chain_head = entries[entries.length - 1]?.digest ?? state.run.chain_head;
    state.run.chain_length = state.chain.length;
    await this.chainer.notify(state.run.run_id, entries);
  }
}
