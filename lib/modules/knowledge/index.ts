/**
 * `wuwe/knowledge`: a full-text knowledge index of documents (SQLite FTS5 through `better-sqlite3`, an
 * optional peer loaded on first use) and its search tool.
 * @packageDocumentation
 */
export { KnowledgeIndex } from './knowledge-index';
export { KnowledgeIndexError } from './knowledge-index-error';
export type { KnowledgeIndexErrorCode } from './knowledge-index-error';
export { KnowledgeToolProvider } from './knowledge-tool-provider';
export type { KnowledgeToolProviderOptions } from './knowledge-tool-provider';
export { splitMarkdown } from './split-markdown';
export type { DocumentPassage, SplitMarkdown } from './split-markdown';
export { KNOWLEDGE_SEARCH_TOOL } from './knowledge-search-tool';
export type {
  DirectoryIndexOptions,
  DirectoryIndexReport,
  IndexedDocument,
  KnowledgeDocumentFormat,
  KnowledgeDocumentInput,
  KnowledgeHit,
  KnowledgeIndexOptions,
} from './knowledge-types';
export type { SqliteDatabaseHandle, SqliteSource } from './sqlite-source';
