import { hash } from 'node:crypto';
import type { ChatMessage } from '../../model/model-types';
import type {
  AgentRunRecord,
  ApprovalRecord,
  MessageOrigin,
  ToolCallRecord,
  ToolOutputProjectionRecord,
} from '../agent-run-record';
import { loadCanonicalize } from '../load-canonicalize';
import { RunStoreError } from '../run-store-error';
import { splitOrigin } from '../message-origins';
import type { JsonValue } from '../../outcome/json-value';
import type { ChainDraft } from './chain-digest';
import type { RecordEntryKind } from './record-chain';

/**
 * The parts of a record the chain hashes, each in one canonical form whatever store it came from: the JSON
 * values of the record (never a store's row text), RFC 8785 canonical, UTF-8, SHA-256. Strings with lone
 * surrogates are hashed in their escaped JSON form, which is unambiguous.
 */

/**
 * Lowercase hex SHA-256 of the canonical JSON of `value`. A value `canonicalize` cannot serialize (a BigInt, or
 * nesting deep enough to exhaust the stack: a verified record's shape is checked first, see `recordShapeProblem`,
 * so this only guards a write) throws `record_invalid`, never a raw error.
 */
export function canonicalSha256(value: unknown): string {
  let text: string | undefined;
  try {
    text = loadCanonicalize()(value);
  } catch (error) {
    throw new RunStoreError(
      'record_invalid',
      'A part of the record has no canonical JSON form, so it cannot be hashed',
      {
        cause: error,
      },
    );
  }
  return hash('sha256', text ?? 'null', 'hex');
}

/** The subject of a call, projection or approval: its kind, turn and call id. */
export function callSubject(kind: 'call' | 'projection' | 'approval', turn: number, callId: string): string {
  return `${kind}:${turn}:${callId}`;
}

/** Draft for the run itself: id, status, metadata, creation time. */
export function runDraft(
  kind: RecordEntryKind,
  record: Pick<AgentRunRecord, 'runId' | 'status' | 'metadata' | 'createdAt'>,
): ChainDraft {
  return {
    kind,
    subject: 'run',
    entitySha256: canonicalSha256({
      runId: record.runId,
      status: record.status,
      metadata: record.metadata ?? null,
      createdAt: record.createdAt,
    }),
  };
}

/** Draft for the message at `index` with its origin. */
export function messageDraft(index: number, message: unknown, origin: MessageOrigin): ChainDraft {
  return { kind: 'message_appended', subject: `message:${index}`, entitySha256: canonicalSha256({ message, origin }) };
}

/** Draft for a replacement of the whole conversation by `count` messages (their own drafts follow). */
export function messagesReplacedDraft(count: number): ChainDraft {
  return { kind: 'messages_replaced', subject: 'messages', entitySha256: canonicalSha256({ count }) };
}

/** Draft for a call as stored after the write (the exact admitted outcome text included). */
export function callDraft(kind: 'call_started' | 'call_attempted' | 'call_admitted', call: ToolCallRecord): ChainDraft {
  return {
    kind,
    subject: callSubject('call', call.turn, call.callId),
    entitySha256: canonicalSha256({
      turn: call.turn,
      callId: call.callId,
      toolName: call.toolName,
      idempotencyKey: call.idempotencyKey ?? null,
      attempts: call.attempts,
      argumentsSha256: call.argumentsSha256,
      arguments: call.arguments,
      status: call.status,
      outcomeJson: call.outcomeJson ?? null,
      startedAt: call.startedAt,
      admittedAt: call.admittedAt ?? null,
    }),
  };
}

/** Draft for a projection audit. */
export function projectionDraft(projection: ToolOutputProjectionRecord): ChainDraft {
  return {
    kind: 'projection_audited',
    subject: callSubject('projection', projection.turn, projection.callId),
    entitySha256: canonicalSha256({
      turn: projection.turn,
      callId: projection.callId,
      toolName: projection.toolName,
      projectedSha256: projection.projectedSha256,
      contentSha256: projection.contentSha256 ?? null,
      messageIndex: projection.messageIndex ?? null,
      report: projection.report,
      recordedAt: projection.recordedAt,
    }),
  };
}

/** Draft for an approval as stored after the write. */
export function approvalDraft(
  kind: 'approval_requested' | 'approval_decided' | 'approval_cancelled',
  approval: ApprovalRecord,
): ChainDraft {
  return {
    kind,
    subject: callSubject('approval', approval.turn, approval.callId),
    entitySha256: canonicalSha256({
      turn: approval.turn,
      callId: approval.callId,
      toolName: approval.toolName,
      argumentsSha256: approval.argumentsSha256,
      state: approval.state,
      decidedBy: approval.decidedBy ?? null,
      reason: approval.reason ?? null,
      requestedAt: approval.requestedAt,
      decidedAt: approval.decidedAt ?? null,
      decidedArgumentsSha256: approval.decidedArgumentsSha256 ?? null,
    }),
  };
}

/**
 * The drafts that describe `record` as it stands, in record order: the run, each message, then each call,
 * projection and approval. A migration chains an older record with these; {@link verifyRunRecord} compares
 * the chain's latest hash of every subject with them.
 */
export function recordDrafts(record: AgentRunRecord): ChainDraft[] {
  const origins = record.messageOrigins ?? record.messages.map((): MessageOrigin => 'unrecorded');
  return [
    runDraft('run_created', record),
    ...record.messages.map((message, index) => messageDraft(index, message, origins[index] ?? 'unrecorded')),
    ...record.toolCalls.map((call) => callDraft(call.status === 'admitted' ? 'call_admitted' : 'call_started', call)),
    ...record.toolOutputProjections.map(projectionDraft),
    ...record.approvals.map((approval) =>
      approvalDraft(
        approval.state === 'pending'
          ? 'approval_requested'
          : approval.state === 'cancelled'
            ? 'approval_cancelled'
            : 'approval_decided',
        approval,
      ),
    ),
  ];
}

/**
 * Lowercase hex SHA-256 of everything a Tool message shows the model: the canonical JSON of its text, error
 * flag and every part (images with their media type and data, notes), so two messages that differ in any
 * image differ in this hash.
 */
export function toolContentSha256(message: Extract<ChatMessage, { role: 'tool' }>): string {
  return canonicalSha256({ content: message.content, isError: message.isError, parts: message.parts ?? [] });
}

/** The drafts of stored message texts (JSON carrying their origin), the first at `firstIndex`. */
export function messageDrafts(texts: readonly string[], firstIndex: number): ChainDraft[] {
  return texts.map((text, offset) => {
    const { message, origin } = splitOrigin(JSON.parse(text) as JsonValue);
    return messageDraft(firstIndex + offset, message, origin);
  });
}
