export * from './open-database';
export * from './fts-query';
export * from './knowledge-index-error';
export * from './knowledge-types';
export * from './split-markdown';
export * from './knowledge-index';
export * from './knowledge-search-tool';
export * from './knowledge-tool-provider';
