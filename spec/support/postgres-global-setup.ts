import { findPostgresBinaries, POSTGRES_HINT, startThrowawayPostgres } from './throwaway-postgres';

/**
 * Jest global setup: when `WUWE_TEST_POSTGRES_URL` is unset, starts a throwaway PostgreSQL from the
 * server binaries found on this machine and exports its URL to the test workers; without binaries,
 * fails the run saying what to do. PostgreSQL tests are never skipped.
 */
export default async function setup(): Promise<void> {
  if (process.env.WUWE_TEST_POSTGRES_URL) return;
  const binDirectory = findPostgresBinaries();
  if (binDirectory === undefined) throw new Error(POSTGRES_HINT);
  const server = await startThrowawayPostgres(binDirectory);
  process.env.WUWE_TEST_POSTGRES_URL = server.url;
  (globalThis as { wuweThrowawayPostgres?: unknown }).wuweThrowawayPostgres = server;
}
