import type { AgentRunRecord } from '../durable/agent-run-record';
import { sha256Hex } from '../durable/canonical-arguments';
import type { RecordChain } from '../durable/chain/record-chain';

/** A run's record chain as the command line reports it. */
export interface RecordChainView {
  /** How many entries the chain has. */
  readonly entries: number;
  /** The digest of the last entry, as the run holds it: anchor it to detect a truncated tail. */
  readonly head?: string;
  /** How many entries a migration computed (they attest the record from the migration on). */
  readonly migratedEntries: number;
}

/**
 * The hashes of one call that let a reader match what the model saw to what ran: the admitted outcome and the
 * Tool message the model was shown (from the call's projection audit).
 */
export interface CallHashes {
  /** Lowercase hex SHA-256 of the admitted outcome's exact JSON text (UTF-8), as stored. */
  readonly outcomeSha256?: string;
  /** The projection audit's SHA-256 of the Tool message text the model saw (`projectedSha256`). */
  readonly projectedSha256?: string;
  /** The projection audit's SHA-256 of everything the Tool message showed: text, error flag, images. */
  readonly contentSha256?: string;
}

/** The chain's entry count, head and migrated entries. */
export function recordChainView(chain: RecordChain): RecordChainView {
  return {
    entries: chain.entries.length,
    ...(chain.head === undefined ? {} : { head: chain.head }),
    migratedEntries: chain.entries.filter((entry) => entry.source === 'migration').length,
  };
}

/** The outcome and projection hashes of the call `callId` of `turn`; fields are absent when not recorded. */
export function callHashes(record: AgentRunRecord, turn: number, callId: string): CallHashes {
  const same = (candidate: { readonly turn: number; readonly callId: string }): boolean =>
    candidate.turn === turn && candidate.callId === callId;
  const outcomeJson = record.toolCalls.find(same)?.outcomeJson;
  const projection = record.toolOutputProjections.find(same);
  return {
    ...(outcomeJson === undefined ? {} : { outcomeSha256: sha256Hex(outcomeJson) }),
    ...(projection === undefined ? {} : { projectedSha256: projection.projectedSha256 }),
    ...(projection?.contentSha256 === undefined ? {} : { contentSha256: projection.contentSha256 }),
  };
}

/** One hash of a run as `runs show` and the HTML timeline list it. */
export interface HashRow {
  readonly turn: number;
  readonly callId: string;
  /** Stable key of the hash (`arguments`, `outcome`, `projected`, `content`, `approval-presented`, ...). */
  readonly key: string;
  /** What the hash is of, for a reader. */
  readonly label: string;
  readonly sha256: string;
}

/** What {@link hashRows} reads: calls and approvals with their hashes. */
export interface HashSource {
  readonly toolCalls: readonly ({
    readonly turn: number;
    readonly callId: string;
    readonly argumentsSha256?: string;
  } & CallHashes)[];
  readonly approvals: readonly {
    readonly turn: number;
    readonly callId: string;
    readonly argumentsSha256: string;
    readonly decidedArgumentsSha256?: string;
    readonly executedArgumentsSha256?: string;
  }[];
}

/** The labels of the hashes of a call, in display order. */
export const CALL_HASH_LABELS = {
  arguments: 'arguments',
  outcome: 'outcome',
  projected: 'model saw (text)',
  content: 'model saw (content)',
  'approval-presented': 'approval presented',
  'approval-decided': 'approval decided on',
  'approval-executed': 'approval executed',
} as const;

/**
 * Every hash of a run, call by call: the arguments that ran, the admitted outcome, the Tool message text and content
 * the model saw, and an approval's three argument hashes (presented, decided on, executed).
 */
export function hashRows(view: HashSource): HashRow[] {
  const rows: HashRow[] = [];
  const push = (turn: number, callId: string, key: keyof typeof CALL_HASH_LABELS, sha256: string | undefined) => {
    if (sha256 !== undefined) rows.push({ turn, callId, key, label: CALL_HASH_LABELS[key], sha256 });
  };
  for (const call of view.toolCalls) {
    push(call.turn, call.callId, 'arguments', call.argumentsSha256);
    push(call.turn, call.callId, 'outcome', call.outcomeSha256);
    push(call.turn, call.callId, 'projected', call.projectedSha256);
    push(call.turn, call.callId, 'content', call.contentSha256);
  }
  for (const approval of view.approvals) {
    push(approval.turn, approval.callId, 'approval-presented', approval.argumentsSha256);
    push(approval.turn, approval.callId, 'approval-decided', approval.decidedArgumentsSha256);
    push(approval.turn, approval.callId, 'approval-executed', approval.executedArgumentsSha256);
  }
  return rows;
}
