import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolOutcome } from '../../../lib/outcome/tool-outcome';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';

/** A temp layout: `root/` (the toolkit's root), `outside/secret.txt` and the prefix sibling `root-evil/secret.txt`. */
export interface Sandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly evil: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wuwe-fs-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  const evil = path.join(base, 'root-evil');
  for (const directory of [root, outside, evil]) await fs.mkdir(directory);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside secret');
  await fs.writeFile(path.join(evil, 'secret.txt'), 'sibling secret');
  return { base, root, outside, evil, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/** Asserts a failure with the given outcome code and `details.reason`, and a last audit entry with that code. */
export function expectFailure(
  toolkit: FilesystemToolkit,
  outcome: ToolOutcome,
  reason: string,
  outcomeCode = 'permission_denied',
  audit: 'refused' | 'allowed' = 'refused',
): void {
  expect(outcome.ok).toBe(false);
  expect(outcome.error).toMatchObject({ code: outcomeCode, details: { reason } });
  expect(typeof outcome.error?.message).toBe('string');
  const last = toolkit.auditLog[toolkit.auditLog.length - 1];
  expect(last).toMatchObject({ outcome: audit, code: reason });
}

/** The structured data of a success, failing the test on a failure. */
export function dataOf(outcome: ToolOutcome): Record<string, any> {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome.data as Record<string, any>;
}
