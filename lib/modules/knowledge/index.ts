export type { SqliteDatabaseHandle, SqliteSource } from './sqlite-source';
export { toFtsMatchQuery } from './fts-query';
export type { FtsQueryOptions, FtsTermMode } from './fts-query';
export { KnowledgeIndexError } from './knowledge-index-error';
export type { KnowledgeIndexErrorCode } from './knowledge-index-error';
export type {
  DirectoryIndexOptions,
  DirectoryIndexReport,
  IndexedDocument,
  KnowledgeDocumentFormat,
  KnowledgeDocumentInput,
  KnowledgeHit,
  KnowledgeIndexOptions,
} from './knowledge-types';
export { splitMarkdown } from './split-markdown';
export type { DocumentPassage, SplitMarkdown } from './split-markdown';
export { KnowledgeIndex } from './knowledge-index';
export { KNOWLEDGE_SEARCH_TOOL, knowledgeSearchDescriptor } from './knowledge-search-tool';
export { directInvocation } from './direct-invocation';
export { KnowledgeToolProvider } from './knowledge-tool-provider';
export type { KnowledgeToolProviderOptions } from './knowledge-tool-provider';
