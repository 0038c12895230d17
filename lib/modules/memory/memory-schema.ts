import type Database from 'better-sqlite3';

/** Conversation messages of {@link SqliteMemory}, one row a message, ordered by `seq` within a run. */
export const MEMORY_MESSAGES_TABLE = 'wuwe_memory_messages';
/** Notes of the memory tools, unique by namespace and key. */
export const MEMORY_NOTES_TABLE = 'wuwe_memory_notes';
/** The earlier single FTS5 index over every namespace's notes: dropped on open, its notes re-indexed per namespace. */
export const MEMORY_NOTES_FTS_TABLE = 'wuwe_memory_notes_fts';
/** Which FTS5 table indexes the notes of each namespace (`wuwe_memory_notes_fts_<id>`). */
export const MEMORY_NOTE_INDEXES_TABLE = 'wuwe_memory_note_indexes';

/** Name of the FTS5 table of the namespace registered under `id` in {@link MEMORY_NOTE_INDEXES_TABLE}. */
export function namespaceFtsTable(id: number): string {
  if (!Number.isSafeInteger(id) || id < 1) throw new Error(`Invalid namespace index id ${String(id)}.`);
  return `${MEMORY_NOTES_FTS_TABLE}_${String(id)}`;
}

/** Creates the conversation table when it does not exist yet. */
export function createMemoryMessagesTable(database: Database.Database): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS ${MEMORY_MESSAGES_TABLE} (
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (run_id, seq)
    );
  `);
}

/**
 * Creates the notes table and the registry of per-namespace FTS5 indexes. Each namespace has its
 * own index (created on its first note, see {@link createNamespaceFtsTable}), so ranking statistics
 * (document count, average length, term frequencies) never mix namespaces. A file of the earlier
 * schema (one index kept by triggers) is migrated: triggers and index dropped, notes re-indexed.
 */
export function createMemoryNotesTables(database: Database.Database): void {
  const notes = MEMORY_NOTES_TABLE;
  database.transaction(() => {
    database.exec(`
      CREATE TABLE IF NOT EXISTS ${notes} (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        text TEXT NOT NULL,
        tags TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (namespace, key)
      );
    `);
    // Triggers an earlier version created (again, if it opened this file since) would feed the shared index.
    database.exec(`
      DROP TRIGGER IF EXISTS ${notes}_after_insert;
      DROP TRIGGER IF EXISTS ${notes}_after_delete;
      DROP TRIGGER IF EXISTS ${notes}_after_update;
    `);
    const registered =
      database
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
        .get(MEMORY_NOTE_INDEXES_TABLE) !== undefined;
    if (registered) return;
    database.exec(`
      DROP TABLE IF EXISTS ${MEMORY_NOTES_FTS_TABLE};
      CREATE TABLE ${MEMORY_NOTE_INDEXES_TABLE} (id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL UNIQUE);
    `);
    const namespaces = database.prepare(`SELECT DISTINCT namespace FROM ${notes} ORDER BY namespace`).all() as {
      namespace: string;
    }[];
    for (const { namespace } of namespaces) {
      const table = createNamespaceFtsTable(database, namespace);
      database
        .prepare(
          `INSERT INTO ${table} (rowid, text, tags, key) SELECT id, text, tags, key FROM ${notes} WHERE namespace = ?`,
        )
        .run(namespace);
    }
  })();
}

/** The FTS5 table of a namespace, if it has one. */
export function findNamespaceFtsTable(database: Database.Database, namespace: string): string | undefined {
  const row = database.prepare(`SELECT id FROM ${MEMORY_NOTE_INDEXES_TABLE} WHERE namespace = ?`).get(namespace) as
    { id: number } | undefined;
  return row === undefined ? undefined : namespaceFtsTable(row.id);
}

/** The FTS5 table of a namespace, registered and created when it has none yet (call inside a transaction). */
export function createNamespaceFtsTable(database: Database.Database, namespace: string): string {
  const existing = findNamespaceFtsTable(database, namespace);
  if (existing !== undefined) return existing;
  const { lastInsertRowid } = database
    .prepare(`INSERT INTO ${MEMORY_NOTE_INDEXES_TABLE} (namespace) VALUES (?)`)
    .run(namespace);
  const table = namespaceFtsTable(Number(lastInsertRowid));
  database.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(
      text, tags, key, content = '${MEMORY_NOTES_TABLE}', content_rowid = 'id',
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
  `);
  return table;
}
