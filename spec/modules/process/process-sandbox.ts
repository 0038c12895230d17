import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolOutcome } from '../../../lib/outcome/tool-outcome';
import { ProcessToolkit } from '../../../lib/modules/process';

/** A temp layout: `work/` (the toolkit's root, with `work/sub/`) and `outside/`. */
export interface ProcessSandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  cleanup(): Promise<void>;
}

export async function makeProcessSandbox(): Promise<ProcessSandbox> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wuwe-proc-')));
  const root = path.join(base, 'work');
  const outside = path.join(base, 'outside');
  await fs.mkdir(path.join(root, 'sub'), { recursive: true });
  await fs.mkdir(outside);
  return { base, root, outside, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/** Allowed executables used by the tests, by absolute path. */
export const EXECUTABLES = { echo: '/bin/echo', sh: '/bin/sh', env: '/usr/bin/env', cat: '/bin/cat', pwd: '/bin/pwd' };

/** True while `pid` is a live (not zombie) process. */
export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Waits until `pid` is gone, up to `timeoutMs`; returns whether it is gone. */
export async function waitGone(pid: number, timeoutMs = 3000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** The structured data of a success, failing the test on a failure. */
export function runData(outcome: ToolOutcome): Record<string, any> {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome.data as Record<string, any>;
}

/** Asserts a failure with the outcome code and `details.reason`, and a last audit entry with that code. */
export function expectRunFailure(
  toolkit: ProcessToolkit,
  outcome: ToolOutcome,
  reason: string,
  outcomeCode = 'permission_denied',
  audit: 'refused' | 'allowed' | 'failed' = 'refused',
): void {
  expect(outcome.ok).toBe(false);
  expect(outcome.error).toMatchObject({ code: outcomeCode, details: { reason } });
  expect(toolkit.auditLog[toolkit.auditLog.length - 1]).toMatchObject({ outcome: audit, code: reason });
}
