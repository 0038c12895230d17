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
import * as rules from './record-rules';
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
} from './run-store';
import { RunStoreError } from './run-store-error';
import {
  approvalFromRow,
  ApprovalRow,
  callFromRow,
  CallRow,
  chainedRecordFromRows,
  ChainRow,
  LeaseRow,
  ProjectionRow,
  projectionFromRow,
  RunRow,
  summaryFromRow,
} from './stored-rows';
import { ChainDraft } from './chain/chain-digest';
import {
  approvalDraft,
  callDraft,
  messageDrafts,
  messagesReplacedDraft,
  projectionDraft,
  runDraft,
} from './chain/chain-entities';
import { ChainedRunRecord, RecordChainOptions } from './chain/record-chain';
import { RecordChainer } from './chain/record-chainer';

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions extends RecordChainOptions {
  /** Milliseconds since the epoch; inject one to test leases. @default Date.now */
  readonly clock?: () => number;
}

/** Calls, projections and approvals are keyed by {@link rules.callKey}: turn and call id. */
interface StoredRun {
  run: RunRow;
  messages: string[];
  calls: Map<string, CallRow>;
  projections: Map<string, ProjectionRow>;
  approvals: Map<string, ApprovalRow>;
  chain: ChainRow[];
  lease?: LeaseRow;
}

/**
 * A {@link RunStore} in process memory: the reference behaviour of the other stores, and the baseline of
 * their benchmarks. Runs are lost with the process. Stored JSON is kept as text, so reads return the exact
 * admitted outcome text like the SQL stores do.
 */
export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, StoredRun>();
  private readonly idempotencyKeys = new Map<string, CallRow>();
  private readonly clock: () => number;
  private readonly chainer: RecordChainer;
  private closed = false;

  constructor(options: MemoryRunStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.chainer = new RecordChainer(options);
  }

  /** {@inheritDoc RunStore.createRun} */
  async createRun(options: CreateRunOptions = {}): Promise<AgentRunRecord> {
    this.open();
    const { runId, status, metadataJson, messageTexts } = rules.checkNewRun(options);
    if (this.runs.has(runId)) throw new RunStoreError('run_exists', 'A run with this id exists', { runId });
    const now = rules.isoTime(this.clock);
    const state: StoredRun = {
      run: {
        run_id: runId,
        status,
        metadata_json: metadataJson,
        created_at: now,
        updated_at: now,
        fencing_token: 0,
        chain_head: null,
        chain_length: 0,
      },
      messages: [...messageTexts],
      calls: new Map(),
      projections: new Map(),
      approvals: new Map(),
      chain: [],
    };
    const run = {
      runId,
      status,
      createdAt: now,
      ...(metadataJson === null ? {} : { metadata: JSON.parse(metadataJson) as never }),
    };
    this.runs.set(runId, state);
    await this.chain(state, [runDraft('run_created', run), ...messageDrafts(messageTexts, 0)]);
    return (await this.loadRun(runId))!;
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
    return chainedRecordFromRows(
      {
        run: state.run,
        messages: state.messages,
        calls: [...state.calls.values()],
        projections: [...state.projections.values()],
        approvals: [...state.approvals.values()],
        chain: state.chain,
        lease: state.lease,
      },
      true,
    );
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(status?: AgentRunStatus): Promise<readonly RunSummary[]> {
    this.open();
    return [...this.runs.values()]
      .filter((state) => status === undefined || state.run.status === status)
      .map((state) => summaryFromRow(state.run));
  }

  /** {@inheritDoc RunStore.appendMessages} */
  async appendMessages(
    runId: string,
    messages: readonly ChatMessage[],
    options: AppendMessagesOptions = {},
  ): Promise<void> {
    const state = this.state(runId, options);
    const texts = rules.serializeMessages(runId, messages, options.origin ?? 'other');
    // Every check before any change: the messages and their projection audits are stored together or not at all.
    const audits = (options.projections ?? []).map((projection) =>
      this.checkedProjection(state, runId, projection, texts),
    );
    for (const audit of audits)
      if (audit.row) state.projections.set(rules.callKey(Number(audit.row.turn), audit.row.call_id), audit.row);
    const first = state.messages.length;
    state.messages.push(...texts);
    this.touch(state);
    await this.chain(state, [
      ...audits.filter((audit) => audit.row).map((audit) => projectionDraft(projectionFromRow(audit.row!, runId))),
      ...messageDrafts(texts, first),
    ]);
  }

  /** {@inheritDoc RunStore.saveMessages} */
  async saveMessages(runId: string, messages: readonly ChatMessage[], options?: RunWriteOptions): Promise<void> {
    const state = this.state(runId, options);
    state.messages = rules.serializeMessages(runId, messages, 'other');
    this.touch(state);
    await this.chain(state, [messagesReplacedDraft(state.messages.length), ...messageDrafts(state.messages, 0)]);
  }

  /** {@inheritDoc RunStore.setStatus} */
  async setStatus(runId: string, status: AgentRunStatus, options?: RunWriteOptions): Promise<void> {
    rules.checkStatus(status);
    const state = this.state(runId, options);
    state.run.status = status;
    const drafts: ChainDraft[] = [
      runDraft('status_changed', {
        runId,
        status,
        createdAt: state.run.created_at,
        ...(state.run.metadata_json === null ? {} : { metadata: JSON.parse(state.run.metadata_json) as never }),
      }),
    ];
    if (status === 'cancelled') {
      for (const approval of state.approvals.values()) {
        if (approval.state !== 'pending') continue;
        approval.state = 'cancelled';
        drafts.push(approvalDraft('approval_cancelled', approvalFromRow(approval)));
      }
    }
    this.touch(state);
    await this.chain(state, drafts);
  }

  /** {@inheritDoc RunStore.recordCallStarted} */
  async recordCallStarted(
    runId: string,
    identity: ToolCallIdentity,
    options?: RunWriteOptions,
  ): Promise<CallStartResult> {
    const state = this.state(runId, options);
    const argumentsJson = rules.checkIdentity(runId, identity);
    const turn = rules.checkTurn(identity.turn);
    const existing =
      state.calls.get(rules.callKey(turn, identity.callId)) ??
      (identity.idempotencyKey !== undefined ? this.idempotencyKeys.get(identity.idempotencyKey) : undefined);
    if (existing) {
      const call = callFromRow(existing);
      rules.checkSameCall(runId, call, identity);
      return { created: false, call };
    }
    const row: CallRow = {
      run_id: runId,
      call_id: identity.callId,
      tool_name: identity.toolName,
      idempotency_key: identity.idempotencyKey ?? null,
      attempts: identity.attempts,
      arguments_sha256: identity.argumentsSha256,
      arguments_json: argumentsJson,
      status: 'started',
      outcome_json: null,
      started_at: rules.isoTime(this.clock),
      admitted_at: null,
      turn,
    };
    state.calls.set(rules.callKey(turn, identity.callId), row);
    if (identity.idempotencyKey !== undefined) this.idempotencyKeys.set(identity.idempotencyKey, row);
    this.touch(state);
    await this.chain(state, [callDraft('call_started', callFromRow(row))]);
    return { created: true, call: callFromRow(row) };
  }

  /** {@inheritDoc RunStore.recordAttempt} */
  async recordAttempt(runId: string, callId: string, attempts: number, options?: CallWriteOptions): Promise<void> {
    rules.checkAttempts(attempts);
    const state = this.state(runId, options);
    const row = state.calls.get(rules.callKey(rules.checkTurn(options?.turn), callId));
    if (!row) throw new RunStoreError('call_not_found', 'No started call', { runId, callId });
    if (row.status === 'admitted')
      throw new RunStoreError('outcome_conflict', 'The call already has an admitted outcome', { runId, callId });
    row.attempts = Math.max(Number(row.attempts), attempts);
    this.touch(state);
    await this.chain(state, [callDraft('call_attempted', callFromRow(row))]);
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
    rules.checkAttempts(attempts);
    const outcomeJson = rules.serializeOutcome(runId, callId, outcome);
    const row = state.calls.get(rules.callKey(rules.checkTurn(options?.turn), callId));
    if (rules.checkAdmission(runId, row && callFromRow(row), callId, outcomeJson)) return callFromRow(row!);
    row!.status = 'admitted';
    row!.outcome_json = outcomeJson;
    row!.attempts = Math.max(Number(row!.attempts), attempts);
    row!.admitted_at = rules.isoTime(this.clock);
    this.touch(state);
    await this.chain(state, [callDraft('call_admitted', callFromRow(row!))]);
    return callFromRow(row!);
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
    rules.checkIdempotentArguments(call, argumentsSha256);
    return call.status === 'admitted' ? call : undefined;
  }

  /** {@inheritDoc RunStore.recordProjection} */
  async recordProjection(
    runId: string,
    projection: ToolOutputProjectionInput,
    options?: RunWriteOptions,
  ): Promise<ToolOutputProjectionRecord> {
    const state = this.state(runId, options);
    const audit = this.checkedProjection(state, runId, projection);
    if (!audit.row) return projectionFromRow(audit.stored, runId);
    state.projections.set(rules.callKey(Number(audit.row.turn), projection.callId), audit.row);
    this.touch(state);
    await this.chain(state, [projectionDraft(projectionFromRow(audit.row, runId))]);
    return projectionFromRow(audit.row, runId);
  }

  /** {@inheritDoc RunStore.requestApproval} */
  async requestApproval(runId: string, request: ApprovalRequest, options?: RunWriteOptions): Promise<ApprovalRecord> {
    const state = this.state(runId, options);
    const turn = rules.checkTurn(request.turn);
    const stored = state.approvals.get(rules.callKey(turn, request.callId));
    rules.checkApprovalRequest(runId, request, stored && approvalFromRow(stored));
    if (stored) return approvalFromRow(stored);
    const row: ApprovalRow = {
      call_id: request.callId,
      tool_name: request.toolName,
      arguments_sha256: request.argumentsSha256,
      state: 'pending',
      decided_by: null,
      reason: null,
      requested_at: rules.isoTime(this.clock),
      decided_at: null,
      turn,
      decided_arguments_sha256: null,
    };
    state.approvals.set(rules.callKey(turn, request.callId), row);
    this.touch(state);
    await this.chain(state, [approvalDraft('approval_requested', approvalFromRow(row))]);
    return approvalFromRow(row);
  }

  /** {@inheritDoc RunStore.decideApproval} */
  async decideApproval(
    runId: string,
    callId: string,
    decision: ApprovalDecision,
    options?: CallWriteOptions,
  ): Promise<ApprovalRecord> {
    const state = this.state(runId, options);
    const turn = rules.checkTurn(options?.turn);
    const row = state.approvals.get(rules.callKey(turn, callId));
    if (row === undefined) throw rules.approvalNotFound(runId, callId, turn, [...state.approvals.values()]);
    if (!rules.checkDecision(runId, callId, row && approvalFromRow(row), decision)) return approvalFromRow(row);
    row.state = decision.approved ? 'approved' : 'denied';
    row.decided_by = rules.decider(decision);
    row.reason = decision.reason ?? null;
    row.decided_at = rules.isoTime(this.clock);
    row.decided_arguments_sha256 = decision.argumentsSha256;
    this.touch(state);
    await this.chain(state, [approvalDraft('approval_decided', approvalFromRow(row))]);
    return approvalFromRow(row);
  }

  /** {@inheritDoc RunStore.acquireLease} */
  async acquireLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkId(workerId, 'workerId');
    rules.checkTtl(ttlMs);
    const state = this.state(runId);
    const now = this.clock();
    if (state.lease && state.lease.worker_id !== workerId && Number(state.lease.expires_at_ms) > now) return false;
    state.lease = { worker_id: workerId, expires_at_ms: now + ttlMs };
    state.run.fencing_token = Number(state.run.fencing_token) + 1;
    return true;
  }

  /** {@inheritDoc RunStore.renewLease} */
  async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
    rules.checkTtl(ttlMs);
    const state = this.state(runId);
    if (state.lease?.worker_id !== workerId) return false;
    state.lease = { worker_id: workerId, expires_at_ms: this.clock() + ttlMs };
    return true;
  }

  /** {@inheritDoc RunStore.releaseLease} */
  async releaseLease(runId: string, workerId: string): Promise<boolean> {
    const state = this.state(runId);
    if (state.lease?.worker_id !== workerId) return false;
    delete state.lease;
    return true;
  }

  /** {@inheritDoc RunStore.close} */
  async close(): Promise<void> {
    this.closed = true;
  }

  private open(): void {
    if (this.closed) throw new RunStoreError('store_closed', 'The run store is closed');
  }

  /** The run's state; with write options, only when their fencing token is current. */
  private state(runId: string, options?: RunWriteOptions): StoredRun {
    this.open();
    const state = this.runs.get(runId);
    if (!state) throw new RunStoreError('run_not_found', 'No such run', { runId });
    rules.checkFence(runId, state.run.fencing_token, options);
    return state;
  }

  /** Checks a projection audit; `row` is the one to store, absent when the same audit is already stored. */
  private checkedProjection(
    state: StoredRun,
    runId: string,
    projection: ToolOutputProjectionInput,
    texts: readonly string[] = [],
  ): { row?: ProjectionRow; stored: ProjectionRow } {
    const turn = rules.checkTurn(projection.turn);
    const call = state.calls.get(rules.callKey(turn, projection.callId));
    const reportJson = rules.checkProjection(runId, projection, call && callFromRow(call));
    const stored = state.projections.get(rules.callKey(turn, projection.callId));
    if (stored) {
      rules.checkSameProjection(
        runId,
        { toolName: stored.tool_name, projectedSha256: stored.projected_sha256, reportJson: stored.report_json },
        projection,
        reportJson,
      );
      return { stored };
    }
    const content = rules.projectedContent(texts, state.messages.length, projection.callId);
    const row: ProjectionRow = {
      call_id: projection.callId,
      tool_name: projection.toolName,
      projected_sha256: projection.projectedSha256,
      report_json: reportJson,
      recorded_at: rules.isoTime(this.clock),
      turn,
      content_sha256: content.contentSha256 ?? null,
      message_index: content.messageIndex ?? null,
    };
    return { row, stored: row };
  }

  private touch(state: StoredRun): void {
    state.run.updated_at = rules.isoTime(this.clock);
  }

  /** Appends the entries of `drafts` to the run's chain and moves its head. */
  private async chain(state: StoredRun, drafts: readonly ChainDraft[]): Promise<void> {
    const entries = this.chainer.entries(
      state.run.run_id,
      { head: state.run.chain_head, length: state.chain.length },
      drafts,
    );
    for (const entry of entries) {
      state.chain.push({
        seq: entry.index,
        kind: entry.kind,
        subject: entry.subject,
        entity_sha256: entry.entitySha256,
        source: entry.source,
        key_id: entry.keyId ?? null,
        digest: entry.digest,
      });
    }
    state.run.chain_head = entries[entries.length - 1]?.digest ?? state.run.chain_head;
    state.run.chain_length = state.chain.length;
    await this.chainer.notify(state.run.run_id, entries);
  }
}
