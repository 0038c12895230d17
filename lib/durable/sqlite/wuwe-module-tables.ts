import { KNOWLEDGE_DOCUMENTS_TABLE, KNOWLEDGE_PASSAGES_TABLE } from '../../modules/knowledge/knowledge-schema';
import {
  MEMORY_MESSAGES_TABLE,
  MEMORY_NOTE_INDEXES_TABLE,
  MEMORY_NOTES_FTS_TABLE,
  MEMORY_NOTES_TABLE,
} from '../../modules/memory/memory-schema';

/** Plain tables of wuwe's SQLite modules (`SqliteMemory`, `SqliteNoteStore`, `KnowledgeIndex`). */
const MODULE_TABLES: readonly string[] = [
  MEMORY_MESSAGES_TABLE,
  MEMORY_NOTES_TABLE,
  MEMORY_NOTE_INDEXES_TABLE,
  KNOWLEDGE_DOCUMENTS_TABLE,
];

/** `SqliteNoteStore` keeps one FTS5 table per namespace: `wuwe_memory_notes_fts_<id>`. */
const PER_NAMESPACE_FTS_TABLE = new RegExp(`^${MEMORY_NOTES_FTS_TABLE}_[0-9]+$`);

/** FTS5 tables of those modules; SQLite keeps each with shadow tables named after it. */
const MODULE_FTS_TABLES: readonly string[] = [MEMORY_NOTES_FTS_TABLE, KNOWLEDGE_PASSAGES_TABLE];

const FTS5_SHADOW_SUFFIXES: readonly string[] = ['_data', '_idx', '_content', '_docsize', '_config'];

/**
 * Whether `name` is a table one of wuwe's SQLite modules creates, so a file holding it (and no other
 * application's tables) may be shared with the run store, as the README documents.
 */
export function isWuweModuleTable(name: string): boolean {
  if (MODULE_TABLES.includes(name) || isFtsTable(name)) return true;
  return FTS5_SHADOW_SUFFIXES.some((suffix) => name.endsWith(suffix) && isFtsTable(name.slice(0, -suffix.length)));
}

function isFtsTable(name: string): boolean {
  return MODULE_FTS_TABLES.includes(name) || PER_NAMESPACE_FTS_TABLE.test(name);
}
