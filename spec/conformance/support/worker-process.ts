import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const worker = join(__dirname, 'boundary-worker.ts');

/** A run of `boundary-worker.ts` in a child process on the store at `address`, and its exit. */
export function startWorker(address: string, dir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', worker, address, dir, 'crash-run'], {
    env: { ...process.env, ...env, TS_NODE_TRANSPILE_ONLY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** The lines of the side-effect ledger `name` in `dir` (none when it does not exist). */
export const ledger = (dir: string, name: string): string[] =>
  existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').trim().split('\n') : [];

/** Waits until `condition` holds, for at most 60 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts the run in a child process stopped at `stopAt`, and SIGKILLs it there. */
export async function killWorkerAt(address: string, dir: string, stopAt: string, env: Record<string, string> = {}) {
  const first = startWorker(address, dir, { STOP_AT: stopAt, ...env });
  await until(() => existsSync(join(dir, 'at-boundary')) || first.child.exitCode !== null, `boundary ${stopAt}`);
  first.child.kill('SIGKILL');
  const killed = await first.done;
  await new Promise((resolve) => setTimeout(resolve, 400)); // the dead worker's lease expires
  return killed;
}
