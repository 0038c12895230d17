import { AgentRunRecord, AgentRunStatus, ApprovalState, RunLease } from '../durable/agent-run-record';
import { ChatMessage } from '../model/model-types';
import { JsonObject, JsonValue } from '../outcome/json-value';
import type { RecordChain } from '../durable/chain/record-chain';
import { CallHashes, callHashes, RecordChainView, recordChainView } from './record-hash-views';
import { argumentsOf, hashOf, modelCalls } from './record-call-arguments';
import { GuardrailNotice, guardrailNoticeOf } from '../runner/run-control/guardrails/guardrail-stop';

/** One row of `wuwe runs list`. */
export interface RunListRow {
  readonly runId: string;
  readonly status: AgentRunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Model requests answered (assistant messages). */
  readonly steps: number;
  readonly toolCalls: number;
  readonly pendingApprovals: number;
}

/**
 * A tool call as `wuwe runs show` reports it; identified by `turn` and `callId` (a model may reuse `call_0` every
 * turn).
 */
export interface ToolCallView extends CallHashes {
  /** The turn that asked for the call: the ordinal (from 1) of the assistant message carrying it. */
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  /** The decoded arguments (the raw text when the model sent text that is not JSON). */
  readonly arguments: JsonValue;
  /**
   * SHA-256 of the canonical arguments, as approvals bind them: the stored hash of a recorded call (what ran), else
   * computed; absent when they are not JSON.
   */
  readonly argumentsSha256?: string;
  /**
   * `admitted`: the store holds the complete outcome; `started`: it may have run, its effect is unknown;
   * `not_recorded`: never executed.
   */
  readonly recorded: 'admitted' | 'started' | 'not_recorded';
  readonly attempts: number;
  /** `ok`, `error`, `unknown` (started, nothing admitted) or `pending` (no answer yet). */
  readonly outcome: 'ok' | 'error' | 'unknown' | 'pending';
  /** The error code, when the outcome is an error. */
  readonly errorCode?: string;
  /** What the model saw, shortened. */
  readonly toolMessage?: string;
}

/** An approval as the command line reports it. */
export interface ApprovalView {
  readonly runId: string;
  readonly callId: string;
  /** The turn of the call (a call id can repeat across turns). */
  readonly turn: number;
  readonly toolName: string;
  readonly state: ApprovalState;
  /** The stored hash the decision is bound to. */
  readonly argumentsSha256: string;
  /** The call's arguments as recorded in the run, when found. */
  readonly arguments?: JsonValue;
  /** True when `arguments` hash to `argumentsSha256`. */
  readonly argumentsMatch: boolean;
  /** The SHA-256 of the arguments decided on, stored with the decision. */
  readonly decidedArgumentsSha256?: string;
  /** The SHA-256 of the arguments the call ran with, once it was recorded as started. */
  readonly executedArgumentsSha256?: string;
  readonly decidedBy?: string;
  readonly reason?: string;
  readonly requestedAt: string;
  readonly decidedAt?: string;
}

/** A projection audit entry as `wuwe runs show` reports it. */
export interface ProjectionView {
  /** The turn of the call. */
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  readonly truncated: boolean;
  readonly originalBytes: number;
  readonly projectedBytes: number;
  readonly trigger: string;
}

/** What `wuwe runs show` reports. */
export interface RunView {
  readonly runId: string;
  readonly status: AgentRunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly metadata?: JsonObject;
  readonly steps: number;
  readonly messages: {
    readonly total: number;
    readonly user: number;
    readonly assistant: number;
    readonly tool: number;
    readonly lastAssistantText?: string;
  };
  readonly toolCalls: readonly ToolCallView[];
  readonly approvals: readonly ApprovalView[];
  readonly projections: readonly ProjectionView[];
  readonly lease?: RunLease;
  /** The guardrail notice the run ends with, when a guardrail stopped it (`guardrail_tripped` or `_rejected`). */
  readonly guardrail?: GuardrailNotice;
  /** The run's record chain, when the record was read with it. */
  readonly chain?: RecordChainView;
}

const SHORT = 120;

/** Cuts `text` to one line of at most `max` characters. */
export function shorten(text: string, max = SHORT): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

/** The row of `runs list` for a record. */
export function runListRow(record: AgentRunRecord): RunListRow {
  return {
    runId: record.runId,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    steps: record.messages.filter((message) => message.role === 'assistant').length,
    toolCalls: modelCalls(record.messages).length,
    pendingApprovals: record.approvals.filter((approval) => approval.state === 'pending').length,
  };
}

/** Every approval of a record, with the arguments it is bound to. */
export function approvalViews(record: AgentRunRecord): ApprovalView[] {
  return record.approvals.map((approval) => {
    const args = argumentsOf(record, approval.callId, approval.turn);
    const executed = record.toolCalls.find(
      (call) => call.callId === approval.callId && call.turn === approval.turn,
    )?.argumentsSha256;
    return {
      runId: record.runId,
      callId: approval.callId,
      turn: approval.turn,
      toolName: approval.toolName,
      state: approval.state,
      argumentsSha256: approval.argumentsSha256,
      ...(args === undefined ? {} : { arguments: args }),
      argumentsMatch: hashOf(args) === approval.argumentsSha256,
      ...(approval.decidedArgumentsSha256 === undefined
        ? {}
        : { decidedArgumentsSha256: approval.decidedArgumentsSha256 }),
      ...(executed === undefined ? {} : { executedArgumentsSha256: executed }),
      ...(approval.decidedBy === undefined ? {} : { decidedBy: approval.decidedBy }),
      ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      requestedAt: approval.requestedAt,
      ...(approval.decidedAt === undefined ? {} : { decidedAt: approval.decidedAt }),
    };
  });
}

/** The report of `runs show` for a record; with its `chain`, the chain's entry count, head and migrated entries. */
export function runView(record: AgentRunRecord, chain?: RecordChain): RunView {
  const count = (role: ChatMessage['role']): number =>
    record.messages.filter((message) => message.role === role).length;
  const lastAssistant = [...record.messages].reverse().find((message) => message.role === 'assistant');
  return {
    runId: record.runId,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
    steps: count('assistant'),
    messages: {
      total: record.messages.length,
      user: count('user'),
      assistant: count('assistant'),
      tool: count('tool'),
      ...(lastAssistant?.content ? { lastAssistantText: lastAssistant.content } : {}),
    },
    toolCalls: toolCallViews(record),
    approvals: approvalViews(record),
    projections: record.toolOutputProjections.map((projection) => ({
      turn: projection.turn,
      callId: projection.callId,
      toolName: projection.toolName,
      truncated: projection.report.truncated,
      originalBytes: projection.report.originalBytes,
      projectedBytes: projection.report.projectedBytes,
      trigger: String(projection.report.trigger),
    })),
    ...(record.lease === undefined ? {} : { lease: record.lease }),
    ...guardrailOf(record),
    ...(chain === undefined ? {} : { chain: recordChainView(chain) }),
  };
}

/** The `guardrail` field of a run's view: the notice its record ends with, if any. */
function guardrailOf(record: AgentRunRecord): { guardrail?: GuardrailNotice } {
  const notice = guardrailNoticeOf(record);
  return notice === undefined ? {} : { guardrail: notice };
}

/** The key of a call within a run: its turn and its id. */
function callKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

/**
 * The Tool messages of a record by turn and call id: an answer belongs to the turn of the assistant message before it.
 */
function answersOf(messages: readonly ChatMessage[]): Map<string, Extract<ChatMessage, { role: 'tool' }>> {
  const answers = new Map<string, Extract<ChatMessage, { role: 'tool' }>>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'assistant') turn++;
    if (message.role === 'tool') answers.set(callKey(turn, message.toolCallId), message);
  }
  return answers;
}

/** Every call the model asked for, in order, then any stored call the conversation does not show. */
function toolCallViews(record: AgentRunRecord): ToolCallView[] {
  const answers = answersOf(record.messages);
  const seen = new Set<string>();
  const calls = [
    ...modelCalls(record.messages).map(({ turn, call }) => ({ turn, id: call.id, name: call.name })),
    ...record.toolCalls.map((call) => ({ turn: call.turn, id: call.callId, name: call.toolName })),
  ];
  const views: ToolCallView[] = [];
  for (const { turn, id, name } of calls) {
    const key = callKey(turn, id);
    if (seen.has(key)) continue;
    seen.add(key);
    const stored = record.toolCalls.find((call) => call.callId === id && call.turn === turn);
    const answer = answers.get(key);
    const args = argumentsOf(record, id, turn) ?? null;
    const hash = stored?.argumentsSha256 ?? hashOf(args);
    let outcome: ToolCallView['outcome'] = 'pending';
    let errorCode: string | undefined;
    if (stored?.status === 'admitted' && stored.outcome) {
      outcome = stored.outcome.ok ? 'ok' : 'error';
      errorCode = stored.outcome.error?.code;
    } else if (answer) outcome = answer.isError ? 'error' : 'ok';
    else if (stored?.status === 'started') outcome = 'unknown';
    if (outcome === 'error' && errorCode === undefined && answer) errorCode = errorCodeOf(answer.content);
    views.push({
      turn,
      callId: id,
      toolName: stored?.toolName ?? name,
      arguments: args,
      ...(hash === undefined ? {} : { argumentsSha256: hash }),
      recorded: stored ? stored.status : 'not_recorded',
      attempts: stored?.attempts ?? 0,
      outcome,
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(answer ? { toolMessage: shorten(answer.content) } : {}),
      ...callHashes(record, turn, id),
    });
  }
  return views;
}

/** The error code in a Tool message the runner rendered for a failure, when it carries one. */
function errorCodeOf(content: string): string | undefined {
  try {
    const parsed = JSON.parse(content) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === 'string' ? parsed.error.code : undefined;
  } catch {
    return /\b([a-z]+(?:_[a-z]+)+)\b/.exec(content)?.[1];
  }
}
