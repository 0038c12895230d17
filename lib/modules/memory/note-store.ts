/** A note the memory tools keep across runs. */
export interface Note {
  /** Notes of different namespaces never see each other (one namespace per user or agent, for example). */
  readonly namespace: string;
  readonly key: string;
  readonly text: string;
  readonly tags: readonly string[];
  /** 1 when created, +1 on every change. */
  readonly version: number;
  /** Epoch milliseconds. */
  readonly createdAtMs: number;
  /** Epoch milliseconds. */
  readonly updatedAtMs: number;
}

/** A recalled note with its full-text relevance. */
export interface NoteMatch extends Note {
  /** Relevance from FTS5 `bm25()`, negated so that higher is better. */
  readonly score: number;
}

/** What `remember` did: created the note, changed it, or found it already the same. */
export type RememberStatus = 'created' | 'updated' | 'unchanged';

/** A note to store under a key (created, or replaced when the key exists). */
export interface RememberNoteInput {
  readonly namespace: string;
  readonly key: string;
  readonly text: string;
  readonly tags: readonly string[];
}

/** A full-text recall. */
export interface RecallNotesInput {
  readonly namespace: string;
  /** Free text; reduced to quoted terms, so search syntax in it is never parsed. */
  readonly query: string;
  readonly limit: number;
  /** Only notes carrying every one of these tags. */
  readonly tags?: readonly string[];
}

/**
 * Storage of the memory tools' notes. `SqliteNoteStore` is the implementation; a host may supply
 * another (any method may return a promise).
 */
export interface NoteStore {
  /** Creates or replaces the note under `key`; storing the same text and tags again changes nothing. */
  remember(
    input: RememberNoteInput,
  ): { note: Note; status: RememberStatus } | Promise<{ note: Note; status: RememberStatus }>;
  /**
   * Notes matching any term of the query, best first. Throws `MemoryModuleError` (`invalid_query`) when no searchable
   * term is left.
   */
  recall(input: RecallNotesInput): readonly NoteMatch[] | Promise<readonly NoteMatch[]>;
  /** Deletes the note under `key`; true when it existed. */
  forget(namespace: string, key: string): boolean | Promise<boolean>;
  /** The note under `key`, if any. */
  get(namespace: string, key: string): Note | undefined | Promise<Note | undefined>;
}
