import { rmSync } from 'node:fs';
import stopPostgres from './postgres-global-teardown';

/** Jest global teardown: stops what the global setup started and removes the shared directory. */
export default function teardown(): void {
  stopPostgres();
  const shared = process.env.WUWE_TEST_RUN_DIR;
  if (shared !== undefined) rmSync(shared, { recursive: true, force: true });
  delete process.env.WUWE_TEST_RUN_DIR;
}
