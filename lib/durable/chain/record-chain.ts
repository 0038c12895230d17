import type { AgentRunRecord } from '../agent-run-record';

/**
 * What one entry of a run's record chain says happened. Every write a run store makes to a run appends
 * entries in the same transaction (see {@link RecordChainEntry}).
 */
export type RecordEntryKind =
  | 'run_created'
  | 'status_changed'
  | 'message_appended'
  | 'messages_replaced'
  | 'call_started'
  | 'call_attempted'
  | 'call_admitted'
  | 'projection_audited'
  | 'approval_requested'
  | 'approval_decided'
  | 'approval_cancelled';

/**
 * One entry of a run's record chain: the SHA-256 of the canonical JSON (RFC 8785) of the part of the record it
 * wrote (`subject`: `run`, `message:<index>`, `messages`, `call:<turn>:<id>`, `projection:<turn>:<id>`,
 * `approval:<turn>:<id>`), chained to the previous entry by `digest`. `digest` is the SHA-256 (or, with
 * `keyId`, the HMAC-SHA-256 under that key) of the entry's canonical form and the previous digest.
 */
export interface RecordChainEntry {
  /** Position in the chain, from 0. */
  readonly index: number;
  readonly kind: RecordEntryKind;
  /** The part of the record the entry wrote. */
  readonly subject: string;
  /** Lowercase hex SHA-256 of the canonical JSON of the subject as written. */
  readonly entitySha256: string;
  /**
   * `write`: appended by the write itself. `migration`: computed when an older store was migrated, from the
   * record as it was found then (it attests the record from that point on, not how it was written).
   */
  readonly source: 'write' | 'migration';
  /** The id of the key whose HMAC `digest` is; absent for a plain SHA-256 chain. */
  readonly keyId?: string;
  /** Lowercase hex digest chaining this entry to the previous one. */
  readonly digest: string;
}

/** A run's chain: its entries in order and the head (the last entry's digest) kept on the run itself. */
export interface RecordChain {
  readonly entries: readonly RecordChainEntry[];
  /** The digest of the last entry, as the run row holds it; absent when the run has no entry. */
  readonly head?: string;
}

/** A record with its chain, as {@link wuwe!RunStore.exportRun} reads it and {@link verifyRunRecord} checks it. */
export interface ChainedRunRecord extends AgentRunRecord {
  readonly chain: RecordChain;
}

/** A secret key of keyed record chains (HMAC-SHA-256). */
export interface RecordKey {
  /** Stable id, stored with each entry the key signed. */
  readonly id: string;
  /** The secret: text (UTF-8) or bytes; at least 16 bytes. */
  readonly key: string | Uint8Array;
}

/** A key, or a key ring: the first key signs new entries, every key of the ring verifies. */
export type RecordKeyOption = RecordKey | readonly RecordKey[];

/** A run's new chain head, given to a store's `onRecordHead` after the write that made it committed. */
export interface RecordHead {
  readonly runId: string;
  /** Index of the last entry. */
  readonly index: number;
  readonly digest: string;
}

/** What a store asks of its chain: the keys, and the hook told of every new head. */
export interface RecordChainOptions {
  /** Sign entries with HMAC-SHA-256 and refuse entries without a known key. @default plain SHA-256 */
  readonly recordKey?: RecordKeyOption;
  /**
   * Called with the run's new head after every committed write that appended entries, so a host can anchor
   * heads outside the database (an anchored head detects a truncated tail). Errors it throws are ignored.
   */
  readonly onRecordHead?: (head: RecordHead) => void | Promise<void>;
}
