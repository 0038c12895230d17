import { stopThrowawayPostgres, ThrowawayPostgres } from './throwaway-postgres';

/** Jest global teardown: stops the server the global setup started, if it started one. */
export default function teardown(): void {
  const holder = globalThis as { wuweThrowawayPostgres?: ThrowawayPostgres };
  if (holder.wuweThrowawayPostgres === undefined) return;
  stopThrowawayPostgres(holder.wuweThrowawayPostgres);
  delete process.env.WUWE_TEST_POSTGRES_URL;
  holder.wuweThrowawayPostgres = undefined;
}
