import type { AgentRunRecord, ToolOutputProjectionRecord } from '../agent-run-record';
import { canonicalJson, sha256Hex } from '../canonical-arguments';
import { RunStoreError } from '../run-store-error';
import { approvalLineageProblem } from './approval-lineage';
import { ChainDraft, entryDigest, RecordKeyRing, recordKeyRing } from './chain-digest';
import { callSubject, recordDrafts, toolContentSha256 } from './chain-entities';
import { chainShapeProblem, isEntryKind } from './chain-shape';
import { RecordShapeProblem, recordShapeProblem } from '../record-shape';
import type { ChainedRunRecord, RecordChainEntry, RecordEntryKind, RecordKeyOption } from './record-chain';

/** Options of {@link verifyRunRecord}. */
export interface VerifyRunRecordOptions {
  /** The keys of a keyed chain. With keys, every entry must be signed by one of them. @default none: a plain chain */
  readonly keys?: RecordKeyOption;
}

/** The first entry {@link verifyRunRecord} found wrong; `index` is the chain's length for a part with no entry. */
export interface BadRecordEntry {
  readonly index: number;
  readonly kind: RecordEntryKind;
  readonly subject: string;
}

/** What {@link verifyRunRecord} found. */
export type RunRecordVerification =
  | {
      readonly ok: true;
      /** How many entries the chain has. */
      readonly entries: number;
      readonly head?: string;
      /** How many leading entries a migration computed (they attest the record from the migration on). */
      readonly migratedEntries: number;
    }
  | { readonly ok: false; readonly entry: BadRecordEntry; readonly reason: string };

type Problem = {
  readonly entry: BadRecordEntry;
  readonly reason: string;
  /** Set when the entry is signed with a key that was not given: the record cannot be checked, not proven wrong. */
  readonly missingKeyId?: string;
};

/**
 * Checks a record against its chain: first the shape of the chain and of the record (every field the chain hashes
 * or the runner reads has its type, nothing nests deeper than `MAX_RECORD_DEPTH`: see `recordShapeProblem`), before
 * anything is hashed; then every entry's digest (SHA-256, or HMAC-SHA-256 under the key it names), the links from
 * entry to entry, the head, that every part of the record (run, messages, calls, projection audits, approvals) is the
 * one its latest entry hashed (messages at their position), that every projection audit describes its stored Tool
 * message (text and every image), and that every decided approval carries its decision. Runs offline, on a record
 * from any store.
 *
 * Returns the first bad entry instead of throwing, for any object: a malformed chain or record is `{ ok: false }`
 * naming the entry at fault (the malformed entry, or the latest entry of the malformed part, or the chain's length
 * for a part with no entry) with a reason starting `the record is malformed` or `the entry at position`. Throws
 * {@link RunStoreError} `record_invalid` only for what is no record at all (a value that is not an object, an
 * array included) and for malformed `keys` (see `recordKeyRing`).
 */
export function verifyRunRecord(record: ChainedRunRecord, options: VerifyRunRecordOptions = {}): RunRecordVerification {
  const ring = recordKeyRing(options.keys);
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new RunStoreError(
      'record_invalid',
      `verifyRunRecord needs a run record with its chain (an object), not ${record === null ? 'null' : Array.isArray(record) ? 'a list' : `a ${typeof record}`}`,
    );
  const problem = recordProblem(record, ring);
  if (problem) return { ok: false, entry: problem.entry, reason: problem.reason };
  const entries = record.chain.entries;
  const migratedEntries = entries.filter((entry) => entry.source === 'migration').length;
  return {
    ok: true,
    entries: entries.length,
    ...(record.chain.head === undefined ? {} : { head: record.chain.head }),
    migratedEntries,
  };
}

/**
 * Throws `record_tampered` naming the first bad entry unless {@link verifyRunRecord} finds the record sound, or
 * `record_key_missing` when an entry is signed with a key the ring lacks.
 */
export function assertRunRecordVerified(record: ChainedRunRecord, ring: RecordKeyRing): void {
  const problem = recordProblem(record, ring);
  if (!problem) return;
  const { entry, reason, missingKeyId } = problem;
  if (missingKeyId !== undefined)
    throw new RunStoreError(
      'record_key_missing',
      `The run record is signed with record key '${missingKeyId}' (from entry ${entry.index}), which this store was not given, so it cannot be verified; open the store with that key in its recordKey ring; nothing was run`,
      {
        runId: record.runId,
        entryIndex: entry.index,
        entryKind: entry.kind,
        entrySubject: entry.subject,
        recordKeyId: missingKeyId,
      },
    );
  throw new RunStoreError(
    'record_tampered',
    `The run record does not match its chain at entry ${entry.index} (${entry.kind} ${entry.subject}): ${reason}; nothing was run`,
    {
      runId: record.runId,
      entryIndex: entry.index,
      entryKind: entry.kind,
      entrySubject: entry.subject,
    },
  );
}

/** A record's first problem: its chain's shape, its own shape (nothing is hashed before both pass), links, content. */
function recordProblem(record: ChainedRunRecord, ring: RecordKeyRing): Problem | undefined {
  const chainShape = chainShapeProblem(record.chain);
  if (chainShape) return { entry: malformedEntry(record.chain, chainShape.position), reason: chainShape.reason };
  const entries = record.chain.entries;
  const shape = recordShapeProblem(record as unknown as Record<string, unknown>);
  if (shape) return { entry: entryOfPart(entries, shape), reason: `the record is malformed: ${shape.reason}` };
  return linkProblem(record.runId, entries, record.chain.head, ring) ?? contentProblem(record, entries);
}

/** The entry at `position` of a chain that may be malformed, with what of its kind and subject can be read. */
function malformedEntry(chain: unknown, position: number): BadRecordEntry {
  const entries = (chain as { entries?: unknown } | null | undefined)?.entries;
  const entry = (Array.isArray(entries) ? entries[position] : undefined) as Record<string, unknown> | null | undefined;
  const kind = entry?.kind;
  const subject = entry?.subject;
  return {
    index: position,
    kind: isEntryKind(kind) ? kind : 'run_created',
    subject: typeof subject === 'string' ? subject : 'run',
  };
}

/** The latest entry that wrote a malformed part, or the chain's length when none did. */
function entryOfPart(entries: readonly RecordChainEntry[], shape: RecordShapeProblem): BadRecordEntry {
  const message = shape.subject.startsWith('message:');
  for (let position = entries.length - 1; position >= 0; position--) {
    const entry = entries[position];
    if (entry.subject === shape.subject) return { index: entry.index, kind: entry.kind, subject: entry.subject };
    // A replacement of the conversation ends what earlier message entries wrote.
    if (message && entry.kind === 'messages_replaced') break;
  }
  return { index: entries.length, kind: shape.kind, subject: shape.subject };
}

function linkProblem(
  runId: string,
  entries: readonly RecordChainEntry[],
  head: string | undefined,
  ring: RecordKeyRing,
): Problem | undefined {
  let previous: string | undefined;
  for (const [position, entry] of entries.entries()) {
    // `chainShapeProblem` passed: every entry has its fields' types.
    const at = (reason: string, missingKeyId?: string): Problem => ({
      entry: { index: position, kind: entry.kind, subject: entry.subject },
      reason,
      ...(missingKeyId === undefined ? {} : { missingKeyId }),
    });
    if (entry.index !== position)
      return at(`the entry at position ${position} has index ${entry.index} (an entry was removed, inserted or moved)`);
    const key = entry.keyId === undefined ? undefined : ring.byId.get(entry.keyId);
    if (entry.keyId !== undefined && key === undefined)
      return at(`it is signed with key '${entry.keyId}', which was not given`, String(entry.keyId));
    if (entry.keyId === undefined && ring.byId.size > 0) return at('it is not signed, and a keyed chain was required');
    const { digest, ...unsigned } = entry;
    if (entryDigest(runId, unsigned, previous, key) !== digest)
      return at('its digest does not match its content and the previous entry');
    previous = digest;
  }
  if (head !== previous) {
    const last = entries[entries.length - 1];
    return {
      entry: {
        index: Math.max(0, entries.length - 1),
        kind: last?.kind ?? 'run_created',
        subject: last?.subject ?? 'run',
      },
      reason: `the run's head ${String(head)} is not the last entry's digest (entries removed from or added to the end)`,
    };
  }
  return undefined;
}

function contentProblem(record: AgentRunRecord, entries: readonly RecordChainEntry[]): Problem | undefined {
  // Calls, projection audits and approvals are keyed by turn and call id, messages by position: each part is
  // checked against its subject's latest entry. The order in which a store lists calls is not checked, since
  // concurrent writers (parallel calls on PostgreSQL) may take their row order and their chain order differently.
  const latest = new Map<string, RecordChainEntry>();
  for (const entry of entries) {
    if (entry.kind === 'messages_replaced')
      for (const subject of [...latest.keys()]) if (subject.startsWith('message:')) latest.delete(subject);
    latest.set(entry.subject, entry);
  }
  const problems: Problem[] = [];
  const actual = recordDrafts(record);
  const extra = (draft: ChainDraft, reason: string): Problem => ({
    entry: { index: entries.length, kind: draft.kind, subject: draft.subject },
    reason,
  });
  const at = (entry: RecordChainEntry, reason: string): Problem => ({
    entry: { index: entry.index, kind: entry.kind, subject: entry.subject },
    reason,
  });
  for (const draft of actual) {
    const expected = latest.get(draft.subject);
    if (expected === undefined)
      problems.push(extra(draft, 'this part of the record has no entry (written outside the store)'));
    else if (expected.entitySha256 !== draft.entitySha256)
      problems.push(at(expected, 'the record differs from what this entry wrote'));
  }
  const present = new Set(actual.map((draft) => draft.subject));
  // `messages` marks a replacement of the conversation; the message entries after it describe the messages.
  for (const entry of latest.values())
    if (entry.subject !== 'messages' && !present.has(entry.subject))
      problems.push(at(entry, 'what this entry wrote is missing from the record'));
  // The chain hashes a call's admitted outcome text; the parsed `outcome` beside it (what readers use) must say the
  // same.
  for (const call of record.toolCalls) {
    if (typeof call.outcomeJson !== 'string') continue;
    const entry = latest.get(callSubject('call', call.turn, call.callId));
    if (entry !== undefined && !sameJson(call.outcome, call.outcomeJson))
      problems.push(at(entry, 'the parsed outcome differs from the admitted outcome text'));
  }
  for (const projection of record.toolOutputProjections) {
    const reason = projectionProblem(record, projection);
    const entry = latest.get(callSubject('projection', projection.turn, projection.callId));
    if (reason)
      problems.push(
        entry
          ? at(entry, reason)
          : extra(
              {
                kind: 'projection_audited',
                subject: callSubject('projection', projection.turn, projection.callId),
                entitySha256: '',
              },
              reason,
            ),
      );
  }
  for (const approval of record.approvals) {
    const reason = approvalLineageProblem(approval);
    const subject = callSubject('approval', approval.turn, approval.callId);
    const entry = latest.get(subject);
    if (reason)
      problems.push(entry ? at(entry, reason) : extra({ kind: 'approval_decided', subject, entitySha256: '' }, reason));
  }
  return problems.sort((a, b) => a.entry.index - b.entry.index)[0];
}

/** Why a projection audit does not describe the Tool message it names, or `undefined`. */
function projectionProblem(record: AgentRunRecord, projection: ToolOutputProjectionRecord): string | undefined {
  if (projection.messageIndex === undefined) return undefined;
  const message = record.messages[projection.messageIndex];
  if (message?.role !== 'tool' || message.toolCallId !== projection.callId)
    return `message ${projection.messageIndex} is not the Tool message of call ${projection.callId}`;
  if (sha256Hex(message.content) !== projection.projectedSha256)
    return `the text of message ${projection.messageIndex} is not the text the audit hashed`;
  if (toolContentSha256(message) !== projection.contentSha256)
    return `the content of message ${projection.messageIndex} (text and images) is not the content the audit hashed`;
  return undefined;
}

/** Whether `value` is the JSON value `text` holds (compared in canonical form); false when either cannot be read. */
function sameJson(value: unknown, text: string): boolean {
  try {
    return canonicalJson(value) === canonicalJson(JSON.parse(text));
  } catch {
    return false;
  }
}
