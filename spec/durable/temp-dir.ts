import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Creates a temporary directory for one spec file; `cleanup` removes it. */
export function makeTempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), `wuwe-${prefix}-`));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
