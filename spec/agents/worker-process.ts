/**
 * The process side of the crash specs: a worker script run with ts-node in a child process, which prints one JSON
 * line (and with a hold, keeps running for the spec to kill it).
 */
import { ChildProcess, spawn } from 'node:child_process';

/** Runs `worker` with `args`; resolves with its first printed line, parsed, and the child (still running on a hold). */
export function runPrintingWorker<Printed>(
  worker: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ printed: Printed; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', worker, ...args], {
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve({ printed: JSON.parse(stdout.split('\n')[0]) as Printed, child });
    });
    child.on('exit', (code) => {
      if (!stdout.includes('\n')) reject(new Error(`worker exited ${String(code)}: ${stderr}`));
    });
  });
}

/** SIGKILLs a worker, checks it died of the signal, then waits for its leases to expire. */
export async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGKILL');
  expect(await exited).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 600)); // the dead worker's leases expire
}
