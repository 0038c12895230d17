/**
 * The PostgreSQL run store: `wuwe/postgres`. Needs the optional peer dependency `pg`, loaded on the
 * first `PostgresRunStore.open`.
 * @packageDocumentation
 */
export { PostgresRunStore } from './postgres-run-store';
export type { PostgresPool, PostgresRunStoreOptions, PostgresSqlExecutor } from './postgres-run-store-options';
