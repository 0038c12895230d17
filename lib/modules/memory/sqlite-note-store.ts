import type Database from 'better-sqlite3';
import { toFtsMatchQuery } from '../knowledge/fts-query';
import { openSqliteDatabase } from '../knowledge/open-database';
import type { SqliteSource } from '../knowledge/sqlite-source';
import {
  createMemoryNotesTables,
  createNamespaceFtsTable,
  findNamespaceFtsTable,
  MEMORY_NOTES_TABLE as NOTES,
} from './memory-schema';
import { MemoryModuleError } from './memory-module-error';
import { Note, NoteMatch, NoteStore, RecallNotesInput, RememberNoteInput, RememberStatus } from './note-store';

interface NoteRow {
  namespace: string;
  key: string;
  text: string;
  tags: string;
  version: number;
  created_at: number;
  updated_at: number;
  rank?: number;
}

interface StoredRow {
  id: number;
  text: string;
  tags: string;
  key: string;
}

const COLUMNS = 'n.namespace, n.key, n.text, n.tags, n.version, n.created_at, n.updated_at';

/**
 * A {@link NoteStore} in SQLite (table `wuwe_memory_notes` and one FTS5 index per namespace),
 * created on open. Recall ranks with FTS5 `bm25()` over the namespace's own index, so what other
 * namespaces store changes neither scores nor order; the same file can hold the conversation
 * memory, the knowledge index and the durable run store.
 */
export class SqliteNoteStore implements NoteStore {
  private readonly database: Database.Database;
  private readonly owned: boolean;

  /** Opens a file (`':memory:'` for a private in-memory database) or uses an open database. */
  constructor(source: SqliteSource) {
    const opened = openSqliteDatabase(source, undefined, 'SqliteNoteStore');
    this.database = opened.database;
    this.owned = opened.owned;
    createMemoryNotesTables(this.database);
  }

  /** Creates or replaces a note; `unchanged` when the same text and tags are already stored. */
  remember(input: RememberNoteInput): { note: Note; status: RememberStatus } {
    checkNoteInput(input);
    const tags = JSON.stringify([...input.tags]);
    return this.database.transaction(() => {
      const existing = this.get(input.namespace, input.key);
      const now = Date.now();
      const fts = createNamespaceFtsTable(this.database, input.namespace);
      if (existing === undefined) {
        const { lastInsertRowid } = this.database
          .prepare(
            `INSERT INTO ${NOTES} (namespace, key, text, tags, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)`,
          )
          .run(input.namespace, input.key, input.text, tags, now, now);
        this.database
          .prepare(`INSERT INTO ${fts} (rowid, text, tags, key) VALUES (?, ?, ?, ?)`)
          .run(lastInsertRowid, input.text, tags, input.key);
        return { note: this.get(input.namespace, input.key) as Note, status: 'created' as const };
      }
      if (existing.text === input.text && JSON.stringify(existing.tags) === tags)
        return { note: existing, status: 'unchanged' as const };
      const old = this.row(input.namespace, input.key) as StoredRow;
      this.unindex(fts, old);
      this.database
        .prepare(`UPDATE ${NOTES} SET text = ?, tags = ?, version = version + 1, updated_at = ? WHERE id = ?`)
        .run(input.text, tags, now, old.id);
      this.database
        .prepare(`INSERT INTO ${fts} (rowid, text, tags, key) VALUES (?, ?, ?, ?)`)
        .run(old.id, input.text, tags, input.key);
      return { note: this.get(input.namespace, input.key) as Note, status: 'updated' as const };
    })();
  }

  /** Notes of the namespace matching any query term (and carrying every given tag), ranked by `bm25()`. */
  recall(input: RecallNotesInput): NoteMatch[] {
    const match = toFtsMatchQuery(input.query);
    if (match === undefined)
      throw new MemoryModuleError('invalid_query', 'The query has no searchable words (letters or digits).');
    const fts = findNamespaceFtsTable(this.database, input.namespace);
    if (fts === undefined) return [];
    const tags = input.tags ?? [];
    const tagFilter = tags
      .map(() => `AND EXISTS (SELECT 1 FROM json_each(n.tags) WHERE json_each.value = ?)`)
      .join(' ');
    const rows = this.database
      .prepare(
        `SELECT ${COLUMNS}, bm25(${fts}, 1.0, 1.5, 1.0) AS rank
         FROM ${fts} JOIN ${NOTES} AS n ON n.id = ${fts}.rowid
         WHERE ${fts} MATCH ? AND n.namespace = ? ${tagFilter}
         ORDER BY rank LIMIT ?`,
      )
      .all(
        match,
        input.namespace,
        ...tags,
        Number.isFinite(input.limit) ? Math.max(1, Math.floor(input.limit)) : 5,
      ) as NoteRow[];
    return rows.map((row) => ({ ...toNote(row), score: -(row.rank ?? 0) }));
  }

  /** Deletes a note; true when it existed. */
  forget(namespace: string, key: string): boolean {
    return this.database.transaction(() => {
      const old = this.row(namespace, key);
      if (old === undefined) return false;
      const fts = findNamespaceFtsTable(this.database, namespace);
      if (fts !== undefined) this.unindex(fts, old);
      return this.database.prepare(`DELETE FROM ${NOTES} WHERE id = ?`).run(old.id).changes > 0;
    })();
  }

  /** The note under a key, if any. */
  get(namespace: string, key: string): Note | undefined {
    const row = this.database
      .prepare(`SELECT ${COLUMNS} FROM ${NOTES} AS n WHERE n.namespace = ? AND n.key = ?`)
      .get(namespace, key) as NoteRow | undefined;
    return row === undefined ? undefined : toNote(row);
  }

  private row(namespace: string, key: string): StoredRow | undefined {
    return this.database
      .prepare(`SELECT id, text, tags, key FROM ${NOTES} WHERE namespace = ? AND key = ?`)
      .get(namespace, key) as StoredRow | undefined;
  }

  /** Removes a note's terms from its namespace index (external content: the old values must be given). */
  private unindex(fts: string, old: StoredRow): void {
    this.database
      .prepare(`INSERT INTO ${fts} (${fts}, rowid, text, tags, key) VALUES ('delete', ?, ?, ?, ?)`)
      .run(old.id, old.text, old.tags, old.key);
  }

  /** Closes the database when this store opened it; an injected database stays open. */
  close(): void {
    if (this.owned && this.database.open) this.database.close();
  }
}

/** A {@link SqliteNoteStore} in a private in-memory database: for tests and as the provider's default. */
export class InMemoryNoteStore extends SqliteNoteStore {
  constructor() {
    super(':memory:');
  }
}

function toNote(row: NoteRow): Note {
  return {
    namespace: row.namespace,
    key: row.key,
    text: row.text,
    tags: JSON.parse(row.tags) as string[],
    version: row.version,
    createdAtMs: row.created_at,
    updatedAtMs: row.updated_at,
  };
}

function checkNoteInput(input: RememberNoteInput): void {
  const problems: string[] = [];
  if (typeof input.namespace !== 'string' || input.namespace.length === 0)
    problems.push('namespace must be a non-empty string');
  if (typeof input.key !== 'string' || input.key.length === 0) problems.push('key must be a non-empty string');
  if (typeof input.text !== 'string' || input.text.trim().length === 0)
    problems.push('text must be a non-empty string');
  if (!Array.isArray(input.tags) || input.tags.some((tag) => typeof tag !== 'string'))
    problems.push('tags must be strings');
  if (problems.length > 0) throw new MemoryModuleError('invalid_note', `Invalid note: ${problems.join('; ')}`);
}
