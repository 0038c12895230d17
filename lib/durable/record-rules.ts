import { isToolOutcome, ToolOutcome } from '../outcome/tool-outcome';
import { newRunId } from '../runner/new-run-id';
import { ApprovalDecision, ApprovalRequest, CreateRunOptions, RunWriteOptions } from './run-store';
import {
  AgentRunStatus,
  AGENT_RUN_STATUSES,
  ApprovalRecord,
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
} from './agent-run-record';
import { canonicalJson, sha256Hex } from './canonical-arguments';
import { RunStoreError } from './run-store-error';
import { toolMessagePartsProblem } from '../model/tool-message-parts';
import { ChatMessage } from '../model/model-types';
import { ORIGIN_KEY, splitOrigin, WrittenMessageOrigin } from './message-origins';
import { JsonValue } from '../outcome/json-value';
import { toolContentSha256 } from './chain/chain-entities';

/** The rules every {@link RunStore} applies the same way, apart from its storage. */

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Reads a clock (milliseconds since the epoch) as ISO 8601 text. */
export function isoTime(clock: () => number): string {
  return new Date(clock()).toISOString();
}

/** A run about to be created: its checked id and status and the JSON texts of its data. */
export interface NewRun {
  readonly runId: string;
  readonly status: AgentRunStatus;
  readonly metadataJson: string | null;
  readonly messageTexts: readonly string[];
}

/**
 * Checks the options of {@link RunStore.createRun} and serializes their data, before any write. Throws
 * `record_invalid` for an empty id, an unknown status, or data with no JSON form.
 */
export function checkNewRun(options: CreateRunOptions): NewRun {
  const runId = options.runId ?? newRunId();
  checkId(runId, 'runId');
  const status = options.status ?? 'running';
  checkStatus(status);
  const metadataJson =
    options.metadata === undefined ? null : serializeJson(runId, [options.metadata], 'metadata object')[0];
  return { runId, status, metadataJson, messageTexts: serializeMessages(runId, options.messages ?? [], 'other') };
}

/** Throws `record_invalid` unless `status` is an {@link AgentRunStatus}. */
export function checkStatus(status: AgentRunStatus): void {
  if (!AGENT_RUN_STATUSES.includes(status))
    throw new RunStoreError('record_invalid', `Unknown run status '${String(status)}'`);
}

/** Throws `record_invalid` unless `value` is a non-empty string. */
export function checkId(value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0)
    throw new RunStoreError('record_invalid', `${what} must be a non-empty string`);
}

/**
 * Validates a call identity and returns the canonical JSON of its arguments. Throws `record_invalid` when a
 * field is missing or the hash is not the canonical hash of the arguments.
 */
export function checkIdentity(runId: string, identity: ToolCallIdentity): string {
  checkId(identity.callId, 'callId');
  checkTurn(identity.turn);
  checkId(identity.toolName, 'toolName');
  if (identity.idempotencyKey !== undefined) checkId(identity.idempotencyKey, 'idempotencyKey');
  checkAttempts(identity.attempts);
  const argumentsJson = canonicalJson(identity.arguments);
  if (!SHA256_HEX.test(identity.argumentsSha256) || sha256Hex(argumentsJson) !== identity.argumentsSha256) {
    throw new RunStoreError('record_invalid', 'argumentsSha256 is not the canonical SHA-256 of the arguments', {
      runId,
      callId: identity.callId,
    });
  }
  return argumentsJson;
}

/**
 * The turn of a call named by a store caller: `turn`, or 1 when it is not given. Throws `record_invalid` unless it is a
 * positive integer.
 */
export function checkTurn(turn: number | undefined): number {
  if (turn === undefined) return 1;
  if (!Number.isSafeInteger(turn) || turn < 1)
    throw new RunStoreError('record_invalid', `turn must be a positive integer, got ${String(turn)}`);
  return turn;
}

/** The key of a call within its run: its turn and call id (a call id repeats across turns). */
export function callKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

/** Throws `record_invalid` unless `attempts` is a positive integer. */
export function checkAttempts(attempts: number): void {
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RunStoreError('record_invalid', `attempts must be a positive integer, got ${String(attempts)}`);
}

/**
 * Compares a new start with the call already holding its call id or idempotency key. Returns normally when
 * they are the same call; throws `idempotency_conflict` or `call_conflict` otherwise.
 */
export function checkSameCall(runId: string, existing: ToolCallRecord, identity: ToolCallIdentity): void {
  const key = identity.idempotencyKey;
  if (key !== undefined && existing.idempotencyKey === key && existing.argumentsSha256 !== identity.argumentsSha256) {
    throw new RunStoreError(
      'idempotency_conflict',
      `Idempotency key '${key}' was already used with different arguments`,
      { runId, callId: identity.callId },
    );
  }
  const sameCall =
    existing.runId === runId && existing.callId === identity.callId && existing.turn === checkTurn(identity.turn);
  if (!sameCall && key !== undefined && existing.idempotencyKey === key && existing.toolName === identity.toolName)
    return;
  if (
    sameCall &&
    existing.toolName === identity.toolName &&
    existing.argumentsSha256 === identity.argumentsSha256 &&
    existing.idempotencyKey === key
  )
    return;
  throw new RunStoreError(
    'call_conflict',
    `Call was already recorded with another tool, arguments or idempotency key`,
    { runId, callId: identity.callId },
  );
}

/** Throws `idempotency_conflict` when the admitted call bound to a key has a different arguments hash. */
export function checkIdempotentArguments(call: ToolCallRecord, argumentsSha256: string): void {
  if (call.argumentsSha256 !== argumentsSha256) {
    throw new RunStoreError(
      'idempotency_conflict',
      `Idempotency key '${String(call.idempotencyKey)}' was already used with different arguments`,
      {
        runId: call.runId,
        callId: call.callId,
      },
    );
  }
}

/** The JSON text an outcome is admitted as. Throws `invalid_outcome` for a non-outcome or unserializable value. */
export function serializeOutcome(runId: string, callId: string, outcome: ToolOutcome): string {
  if (!isToolOutcome(outcome))
    throw new RunStoreError('invalid_outcome', 'The value to admit is not a tool outcome', { runId, callId });
  try {
    return JSON.stringify(outcome);
  } catch (error) {
    throw new RunStoreError('invalid_outcome', `The outcome is not JSON-serializable: ${(error as Error).message}`, {
      runId,
      callId,
      cause: error,
    });
  }
}

/** True when two admitted JSON texts are the same outcome (same text, or same canonical JSON). */
export function sameOutcomeJson(stored: string, next: string): boolean {
  if (stored === next) return true;
  try {
    return canonicalJson(JSON.parse(stored)) === canonicalJson(JSON.parse(next));
  } catch {
    return false;
  }
}

/** Admission checks on the call found: returns true when an equal outcome is already admitted (a no-op). */
export function checkAdmission(
  runId: string,
  call: ToolCallRecord | undefined,
  callId: string,
  outcomeJson: string,
): call is ToolCallRecord {
  if (!call) throw new RunStoreError('call_not_found', 'No started call to admit an outcome for', { runId, callId });
  if (call.status !== 'admitted') return false;
  if (call.outcomeJson !== undefined && sameOutcomeJson(call.outcomeJson, outcomeJson)) return true;
  throw new RunStoreError('outcome_conflict', 'A different outcome was already admitted for this call', {
    runId,
    callId,
  });
}

/** Validates a projection and returns the canonical JSON of its report. */
export function checkProjection(
  runId: string,
  projection: ToolOutputProjectionInput,
  call: ToolCallRecord | undefined,
): string {
  checkId(projection.callId, 'callId');
  checkTurn(projection.turn);
  if (!call)
    throw new RunStoreError('call_not_found', 'No call to record a projection for', {
      runId,
      callId: projection.callId,
    });
  if (call.status !== 'admitted')
    throw new RunStoreError('call_not_admitted', 'A projection needs an admitted outcome', {
      runId,
      callId: projection.callId,
    });
  if (!SHA256_HEX.test(projection.projectedSha256))
    throw new RunStoreError('record_invalid', 'projectedSha256 must be lowercase hex SHA-256', {
      runId,
      callId: call.callId,
    });
  if (call.toolName !== projection.toolName) {
    throw new RunStoreError('projection_conflict', `The call ran '${call.toolName}', not '${projection.toolName}'`, {
      runId,
      callId: call.callId,
    });
  }
  const report = projection.report as unknown;
  if (typeof report !== 'object' || report === null || Array.isArray(report))
    throw new RunStoreError('record_invalid', 'The projection report must be an object', { runId });
  return canonicalJson(report);
}

/** Throws `projection_conflict` unless the stored projection equals the new one. */
export function checkSameProjection(
  runId: string,
  stored: { toolName: string; projectedSha256: string; reportJson: string },
  next: ToolOutputProjectionInput,
  reportJson: string,
): void {
  if (
    stored.toolName !== next.toolName ||
    stored.projectedSha256 !== next.projectedSha256 ||
    canonicalJson(JSON.parse(stored.reportJson)) !== reportJson
  ) {
    throw new RunStoreError('projection_conflict', 'The call is already bound to different projection data', {
      runId,
      callId: next.callId,
    });
  }
}

/** Validates an approval request; throws `approval_mismatch` when it differs from the stored one. */
export function checkApprovalRequest(
  runId: string,
  request: ApprovalRequest,
  stored: ApprovalRecord | undefined,
): void {
  checkId(request.callId, 'callId');
  checkTurn(request.turn);
  checkId(request.toolName, 'toolName');
  if (!SHA256_HEX.test(request.argumentsSha256))
    throw new RunStoreError('record_invalid', 'argumentsSha256 must be lowercase hex SHA-256', { runId });
  if (stored && (stored.toolName !== request.toolName || stored.argumentsSha256 !== request.argumentsSha256)) {
    throw new RunStoreError(
      'approval_mismatch',
      'An approval for this call was requested for another tool or other arguments',
      { runId, callId: request.callId },
    );
  }
}

/**
 * The `approval_not_found` error of a decision for a call (`turn`, `callId`) without an approval: it names the
 * turns whose approvals have that call id (`approvals` are the run's, in any order), as `approvalTurns` and in the
 * message.
 */
export function approvalNotFound(
  runId: string,
  callId: string,
  turn: number,
  approvals: readonly { call_id: string; turn: number | string }[],
): RunStoreError {
  const approvalTurns = [
    ...new Set(approvals.filter((row) => row.call_id === callId).map((row) => Number(row.turn))),
  ].sort((a, b) => a - b);
  const others =
    approvalTurns.length === 0
      ? 'no turn of the run has an approval for this call id'
      : `approvals for this call id exist in turn(s) ${approvalTurns.join(', ')}: pass that turn`;
  return new RunStoreError('approval_not_found', `No approval was requested for this call in turn ${turn}; ${others}`, {
    runId,
    callId,
    turn,
    approvalTurns,
  });
}

/**
 * Checks a decision against the stored approval. Returns true when it must be written, false when the same
 * decision is already stored. Throws `approval_not_found` or `approval_mismatch`.
 */
export function checkDecision(
  runId: string,
  callId: string,
  stored: ApprovalRecord | undefined,
  decision: ApprovalDecision,
): boolean {
  if (!stored)
    throw new RunStoreError('approval_not_found', 'No approval was requested for this call', { runId, callId });
  if (stored.toolName !== decision.toolName || stored.argumentsSha256 !== decision.argumentsSha256) {
    throw new RunStoreError(
      'approval_mismatch',
      'The decision names another tool or other arguments than the request',
      { runId, callId },
    );
  }
  if (stored.state === 'pending') return true;
  if (stored.state === (decision.approved ? 'approved' : 'denied')) return false;
  throw new RunStoreError('approval_mismatch', `The approval was already ${stored.state}`, { runId, callId });
}

/**
 * Returns `ms` when it is a positive whole number of milliseconds (at most 2^31-1); throws `record_invalid` otherwise.
 */
export function checkTimeout(ms: number, what: string): number {
  if (!Number.isInteger(ms) || ms <= 0 || ms > 2 ** 31 - 1)
    throw new RunStoreError(
      'record_invalid',
      `${what} must be a positive whole number of milliseconds, got ${String(ms)}`,
    );
  return ms;
}

/**
 * Throws `lease_held` when a write carries a fencing token that is not the run's current one: another worker
 * acquired the lease since. A write without a token is not fenced.
 */
export function checkFence(runId: string, currentToken: number | string, options: RunWriteOptions | undefined): void {
  const token = options?.fencingToken;
  if (token !== undefined && Number(currentToken) !== token) {
    throw new RunStoreError(
      'lease_held',
      `The lease of this run was taken over (fencing token ${token} is not the current ${String(currentToken)}); nothing was written`,
      { runId },
    );
  }
}

/** Throws `record_invalid` unless `ttlMs` is a positive finite number. */
export function checkTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RunStoreError('record_invalid', `ttlMs must be positive, got ${String(ttlMs)}`);
}

/**
 * The JSON texts of messages (or any host JSON). Throws `record_invalid` for a value with no JSON form,
 * or a Tool message with malformed `parts` (a store never writes what it would refuse to load).
 */
export function serializeJson(runId: string, values: readonly unknown[], what: string): string[] {
  return values.map((value) => {
    const role =
      what === 'message' && typeof value === 'object' && value !== null
        ? (value as { role?: unknown }).role
        : undefined;
    const problem = role === 'tool' ? toolMessagePartsProblem((value as { parts?: unknown }).parts) : undefined;
    if (problem !== undefined)
      throw new RunStoreError('record_invalid', `A tool message is malformed: ${problem}`, { runId });
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new RunStoreError('record_invalid', `A ${what} is not JSON-serializable: ${(error as Error).message}`, {
        runId,
        cause: error,
      });
    }
    if (typeof text !== 'string') throw new RunStoreError('record_invalid', `A ${what} has no JSON form`, { runId });
    return text;
  });
}

/**
 * The JSON texts of messages, each carrying `origin` (see {@link ORIGIN_KEY}). Throws `record_invalid` as {@link
 * serializeJson} does.
 */
export function serializeMessages(
  runId: string,
  messages: readonly ChatMessage[],
  origin: WrittenMessageOrigin,
): string[] {
  return serializeJson(
    runId,
    messages.map((message) =>
      typeof message === 'object' && message !== null ? { ...message, [ORIGIN_KEY]: origin } : message,
    ),
    'message',
  );
}

/** Who a decision names; a decision without a principal is recorded as `unattributed` (never as no one). */
export function decider(decision: ApprovalDecision): string {
  const by = decision.decidedBy;
  if (by === undefined || by === null) return 'unattributed';
  if (typeof by !== 'string' || by === '')
    throw new RunStoreError('record_invalid', 'decidedBy must be a non-empty string');
  return by;
}

/**
 * Where the Tool message a projection audit describes lies among `texts` (the stored JSON of the messages
 * written with it, the first at `firstIndex`), and the hash of all it shows the model; empty when the batch
 * has no Tool message for the call.
 */
export function projectedContent(
  texts: readonly string[],
  firstIndex: number,
  callId: string,
): { contentSha256?: string; messageIndex?: number } {
  for (const [offset, text] of texts.entries()) {
    const message = splitOrigin(JSON.parse(text) as JsonValue).message as unknown as ChatMessage;
    if (message?.role === 'tool' && message.toolCallId === callId)
      return { contentSha256: toolContentSha256(message), messageIndex: firstIndex + offset };
  }
  return {};
}
