import { MAX_RESULT_DEPTH } from '../tools/to-tool-outcome';
import { AGENT_RUN_STATUSES, MessageOrigin } from './agent-run-record';
import type { RecordEntryKind } from './chain/record-chain';
import { describe, isObject, messageShapeProblem } from './record-message-shape';

const MESSAGE_ORIGINS: readonly MessageOrigin[] = ['model', 'other', 'unrecorded'];
const APPROVAL_STATES: readonly string[] = ['pending', 'approved', 'denied', 'cancelled'];
const LISTS = ['messages', 'toolCalls', 'toolOutputProjections', 'approvals'] as const;

/**
 * The deepest nesting of arrays and objects a record may have, the record itself counted: a tool result as deep as
 * the runner admits one (256 levels, the `maxDepth` of `toToolOutcome`'s result limits) inside the levels of the
 * record that hold it (record, calls, call, outcome, error, details), with room to spare. A record nested deeper (a
 * hand edit, or host metadata nested that deep) is refused before anything hashes it: the `canonicalize` package
 * recurses, and overflows the stack a few thousand levels down.
 */
export const MAX_RECORD_DEPTH = MAX_RESULT_DEPTH + 16;

/** What {@link recordShapeProblem} found: the part of the record at fault and why. */
export interface RecordShapeProblem {
  /**
   * The chain subject of the part (`run`, `messages`, `message:<index>`, `call:<turn>:<id>`, ...), or its place in
   * the record (`toolCalls/<index>`, ...) when its identity cannot be read.
   */
  readonly subject: string;
  /** The kind of entry that writes that part. */
  readonly kind: RecordEntryKind;
  /** What is wrong, naming the field (e.g. `message 2: a tool message needs \`content\` text`). */
  readonly reason: string;
}

/**
 * The first problem with the shape of a record, or `undefined`: every field the chain hashes, the verifier compares
 * and the runner reads has its type (run id, status, times, metadata, every message, origin, call, projection audit,
 * approval and the lease), and nothing nests deeper than {@link MAX_RECORD_DEPTH} or holds a value JSON cannot
 * (a BigInt, a function, a symbol, a number that is not finite). A call's, projection's or approval's `turn` and a
 * lease's `fencingToken` may be absent (an older version's record, which `parseAgentRunRecord` upgrades). Walks the
 * record once, without recursion deeper than that limit; hashes nothing.
 */
export function recordShapeProblem(record: Record<string, unknown>): RecordShapeProblem | undefined {
  const run = (reason: string): RecordShapeProblem => ({ subject: 'run', kind: 'run_created', reason });
  if (typeof record.runId !== 'string' || record.runId === '') return run('runId must be a non-empty string');
  if (!AGENT_RUN_STATUSES.includes(record.status as never)) return run(`unknown status ${describe(record.status)}`);
  for (const key of LISTS) if (!Array.isArray(record[key])) return run(`${key} must be an array`);
  for (const key of ['createdAt', 'updatedAt'])
    if (typeof record[key] !== 'string') return run(`${key} must be an ISO 8601 string`);
  return (
    nestingProblems(record) ??
    (record.metadata !== undefined && !isObject(record.metadata) ? run('metadata must be an object') : undefined) ??
    leaseProblem(record.lease) ??
    messagesProblem(record.messages as unknown[], record.messageOrigins) ??
    partsProblem(record.toolCalls as unknown[], 'call', 'toolCalls', 'call_started', callProblem) ??
    partsProblem(
      record.toolOutputProjections as unknown[],
      'projection',
      'toolOutputProjections',
      'projection_audited',
      projectionProblem,
    ) ??
    partsProblem(record.approvals as unknown[], 'approval', 'approvals', 'approval_requested', approvalProblem)
  );
}

/** The lists of a record's parts: which part each item is, the kind of entry that writes it, its name. */
const PART_LISTS: ReadonlyMap<
  string,
  { part: 'message' | 'call' | 'projection' | 'approval'; kind: RecordEntryKind; label: string }
> = new Map([
  ['messages', { part: 'message', kind: 'message_appended', label: 'message' }],
  ['toolCalls', { part: 'call', kind: 'call_started', label: 'tool call' }],
  ['toolOutputProjections', { part: 'projection', kind: 'projection_audited', label: 'projection audit' }],
  ['approvals', { part: 'approval', kind: 'approval_requested', label: 'approval' }],
]);

/** Depth and non-JSON values, per part: each message, call, audit and approval, and every other field. */
function nestingProblems(record: Record<string, unknown>): RecordShapeProblem | undefined {
  for (const key of Object.keys(record)) {
    const list = PART_LISTS.get(key);
    if (list === undefined) {
      const problem = valueProblem(record[key], MAX_RECORD_DEPTH - 1);
      if (problem !== undefined) return { subject: 'run', kind: 'run_created', reason: `${key} ${problem}` };
      continue;
    }
    const items = record[key] as unknown[];
    for (let index = 0; index < items.length; index++) {
      const problem = valueProblem(items[index], MAX_RECORD_DEPTH - 2);
      if (problem !== undefined)
        return {
          subject: list.part === 'message' ? `message:${index}` : subjectOf(list.part, key, index, items[index]),
          kind: list.kind,
          reason: `${list.label} ${index} ${problem}`,
        };
    }
  }
  return undefined;
}

/**
 * Whether `value` nests more than `levels` arrays and objects deep (a value a store must not write: loading it would
 * be refused, see {@link MAX_RECORD_DEPTH}). Walks with a stack, not by recursion. @internal
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= levels) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Why `value` is not JSON nested at most `levels` arrays and objects deep, or `undefined`. Recursive, but never more
 * than `levels` frames deep.
 */
function valueProblem(value: unknown, levels: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `holds ${String(value)}, which is not a JSON number`;
    case 'object':
      break;
    default:
      return `holds a ${typeof value}, which has no JSON form`;
  }
  if (value === null) return undefined;
  if (levels <= 0) return `nests deeper than the ${MAX_RECORD_DEPTH} levels a record may have`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = valueProblem(value[index], levels - 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  for (const key in value) {
    const problem = valueProblem((value as Record<string, unknown>)[key], levels - 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function leaseProblem(lease: unknown): RecordShapeProblem | undefined {
  if (lease === undefined) return undefined;
  const ok =
    isObject(lease) &&
    typeof lease.workerId === 'string' &&
    Number.isFinite(lease.expiresAtMs) &&
    (lease.fencingToken === undefined || Number.isSafeInteger(lease.fencingToken));
  return ok
    ? undefined
    : {
        subject: 'run',
        kind: 'run_created',
        reason: 'lease must be an object with workerId, expiresAtMs and an integer fencingToken',
      };
}

function messagesProblem(messages: readonly unknown[], origins: unknown): RecordShapeProblem | undefined {
  for (const [index, message] of messages.entries()) {
    const problem = messageShapeProblem(message);
    if (problem !== undefined)
      return { subject: `message:${index}`, kind: 'message_appended', reason: `message ${index}: ${problem}` };
  }
  if (origins === undefined) return undefined;
  if (!Array.isArray(origins) || origins.length !== messages.length)
    return {
      subject: 'messages',
      kind: 'messages_replaced',
      reason: 'messageOrigins must be an array with one origin per message',
    };
  const index = origins.findIndex((origin) => !MESSAGE_ORIGINS.includes(origin as never));
  return index === -1
    ? undefined
    : {
        subject: `message:${index}`,
        kind: 'message_appended',
        reason: `unknown message origin ${describe(origins[index])}`,
      };
}

/** The subject of a call, audit or approval: by its identity when it can be read, else by its place. */
function subjectOf(kind: 'call' | 'projection' | 'approval', list: string, index: number, entry: unknown): string {
  if (!isObject(entry) || typeof entry.callId !== 'string') return `${list}/${index}`;
  return `${kind}:${isTurn(entry.turn) ? entry.turn : 1}:${entry.callId}`;
}

function isTurn(turn: unknown): turn is number {
  return Number.isSafeInteger(turn) && (turn as number) >= 1;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The first of a list of calls, projection audits or approvals that `problemOf` finds wrong, as its chain subject. */
function partsProblem(
  items: readonly unknown[],
  part: 'call' | 'projection' | 'approval',
  key: string,
  kind: RecordEntryKind,
  problemOf: (item: unknown, index: number) => string | undefined,
): RecordShapeProblem | undefined {
  for (const [index, item] of items.entries()) {
    const reason = problemOf(item, index);
    if (reason !== undefined) return { subject: subjectOf(part, key, index, item), kind, reason };
  }
  return undefined;
}

function callProblem(call: unknown, index: number): string | undefined {
  if (!isObject(call)) return `tool call ${index} must be an object`;
  if (typeof call.callId !== 'string' || typeof call.toolName !== 'string' || typeof call.argumentsSha256 !== 'string')
    return 'every tool call needs callId, toolName and argumentsSha256';
  const name = `call ${call.callId}`;
  if (call.turn !== undefined && !isTurn(call.turn)) return `${name}: turn must be a positive integer`;
  if (call.status !== 'started' && call.status !== 'admitted')
    return `${name} has unknown status ${describe(call.status)}`;
  if ((call.status === 'admitted') !== (typeof call.outcomeJson === 'string'))
    return `${name}: an admitted call, and only one, has outcomeJson`;
  if ((call.status === 'admitted') !== isObject(call.outcome))
    return `${name}: an admitted call, and only one, has its parsed outcome (an object)`;
  if (!Number.isSafeInteger(call.attempts) || (call.attempts as number) < 1)
    return `${name}: attempts must be a positive integer`;
  if (call.arguments === undefined) return `${name} has no arguments`;
  if (typeof call.startedAt !== 'string') return `${name}: startedAt must be an ISO 8601 string`;
  if (!isOptionalString(call.admittedAt) || !isOptionalString(call.idempotencyKey))
    return `${name}: admittedAt and idempotencyKey must be strings when present`;
  return undefined;
}

function projectionProblem(projection: unknown, index: number): string | undefined {
  if (!isObject(projection)) return `projection audit ${index} must be an object`;
  const { callId, toolName, projectedSha256, turn, contentSha256, messageIndex } = projection;
  if (typeof callId !== 'string' || typeof toolName !== 'string' || typeof projectedSha256 !== 'string')
    return `projection audit ${index} needs callId, toolName and projectedSha256`;
  const name = `the projection audit of call ${callId}`;
  if (turn !== undefined && !isTurn(turn)) return `${name}: turn must be a positive integer`;
  if (!isOptionalString(contentSha256)) return `${name}: contentSha256 must be a string when present`;
  if (messageIndex !== undefined && !(Number.isSafeInteger(messageIndex) && (messageIndex as number) >= 0))
    return `${name}: messageIndex must be a message's index`;
  if (!isObject(projection.report)) return `${name}: report must be an object`;
  if (typeof projection.recordedAt !== 'string') return `${name}: recordedAt must be an ISO 8601 string`;
  return undefined;
}

function approvalProblem(approval: unknown, index: number): string | undefined {
  if (!isObject(approval)) return `approval ${index} must be an object`;
  const { callId, toolName, argumentsSha256, turn, state } = approval;
  if (typeof callId !== 'string' || typeof toolName !== 'string' || typeof argumentsSha256 !== 'string')
    return `approval ${index} needs callId, toolName and argumentsSha256`;
  const name = `the approval of call ${callId}`;
  if (turn !== undefined && !isTurn(turn)) return `${name}: turn must be a positive integer`;
  if (!APPROVAL_STATES.includes(state as string)) return `${name} has unknown state ${describe(state)}`;
  if (typeof approval.requestedAt !== 'string') return `${name}: requestedAt must be an ISO 8601 string`;
  for (const key of ['decidedBy', 'reason', 'decidedAt', 'decidedArgumentsSha256'])
    if (!isOptionalString(approval[key])) return `${name}: ${key} must be a string when present`;
  return undefined;
}
