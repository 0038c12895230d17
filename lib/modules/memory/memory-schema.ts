import type Database from 'better-sqlite3';

/** Conversation messages of {@link SqliteMemory}, one row a message, ordered by `seq` within a run. */
export const MEMORY_MESSAGES_TABLE = 'wuwe_memory_messages';
/** Notes of the memory tools, unique by namespace and key. */
export const MEMORY_NOTES_TABLE = 'wuwe_memory_notes';
/** FTS5 index over the notes' text, tags and key (external content, kept in sync by triggers). */
export const MEMORY_NOTES_FTS_TABLE = 'wuwe_memory_notes_fts';

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

/** Creates the notes table, its FTS5 index and the triggers that keep them in sync. */
export function createMemoryNotesTables(database: Database.Database): void {
  const notes = MEMORY_NOTES_TABLE;
  const fts = MEMORY_NOTES_FTS_TABLE;
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
    CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(
      text, tags, key, content = '${notes}', content_rowid = 'id',
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER IF NOT EXISTS ${notes}_after_insert AFTER INSERT ON ${notes} BEGIN
      INSERT INTO ${fts} (rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
    END;
    CREATE TRIGGER IF NOT EXISTS ${notes}_after_delete AFTER DELETE ON ${notes} BEGIN
      INSERT INTO ${fts} (${fts}, rowid, text, tags, key) VALUES ('delete', old.id, old.text, old.tags, old.key);
    END;
    CREATE TRIGGER IF NOT EXISTS ${notes}_after_update AFTER UPDATE ON ${notes} BEGIN
      INSERT INTO ${fts} (${fts}, rowid, text, tags, key) VALUES ('delete', old.id, old.text, old.tags, old.key);
      INSERT INTO ${fts} (rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
    END;
  `);
}
