import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import startPostgres from './postgres-global-setup';

/**
 * Jest global setup: the throwaway PostgreSQL (see `postgres-global-setup.ts`), and a directory for
 * what the spec files of one run share (the packed tarball), removed by the global teardown.
 */
export default async function setup(): Promise<void> {
  process.env.WUWE_TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'wuwe-test-run-'));
  await startPostgres();
}
