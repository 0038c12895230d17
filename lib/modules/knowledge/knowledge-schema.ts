import type Database from 'better-sqlite3';

/**
 * Table of indexed documents, one row a source; `origin` names the directory scan that added it (NULL for
 * `addDocument`).
 */
export const KNOWLEDGE_DOCUMENTS_TABLE = 'wuwe_knowledge_documents';
/** FTS5 table of passages: `body`, `heading`, `title` are searched; `document_id`, `ordinal` are not. */
export const KNOWLEDGE_PASSAGES_TABLE = 'wuwe_knowledge_passages';

/** Creates the knowledge tables when they do not exist yet. */
export function createKnowledgeTables(database: Database.Database): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS ${KNOWLEDGE_DOCUMENTS_TABLE} (
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      format TEXT NOT NULL,
      passage_count INTEGER NOT NULL,
      indexed_at INTEGER NOT NULL,
      origin TEXT
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS ${KNOWLEDGE_PASSAGES_TABLE} USING fts5(
      body, heading, title, document_id UNINDEXED, ordinal UNINDEXED,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
  `);
  const columns = database.prepare(`PRAGMA table_info(${KNOWLEDGE_DOCUMENTS_TABLE})`).all() as { name: string }[];
  // Files written before directories were tracked: add the column that says which directory scan owns a document.
  if (!columns.some((column) => column.name === 'origin'))
    database.exec(`ALTER TABLE ${KNOWLEDGE_DOCUMENTS_TABLE} ADD COLUMN origin TEXT`);
}
