/**
 * The SQLite run store: `wuwe/sqlite`. Needs the optional peer dependency `better-sqlite3`, loaded when
 * the first store is constructed.
 * @packageDocumentation
 */
export { SqliteRunStore } from './sqlite-run-store';
export type { SqliteRunStoreOptions } from './sqlite-run-store-options';
