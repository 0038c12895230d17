import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { WorkerProcessConfig } from './queue-worker-process';

const script = join(__dirname, 'queue-worker-process.ts');

/** A spawned worker process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves once the worker wrote `ready`. */
  readonly ready: Promise<void>;
  /** Whether the worker wrote `ready` and has not exited. */
  isReady(): boolean;
  /** Resolves when the process exits, with its code (null when killed by a signal) and output. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Spawns a worker process (TypeScript through ts-node, transpile only) with `env` added. */
export function spawnWorker(config: WorkerProcessConfig, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script], {
    env: { ...process.env, ...env, TS_NODE_TRANSPILE_ONLY: '1', WUWE_QUEUE_WORKER: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let readyNow = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  ready.then(() => (readyNow = child.exitCode === null && child.signalCode === null), () => undefined);
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => {
      readyNow = false;
      markReady();
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, ready, exited, isReady: () => readyNow };
}

/** Polls `condition` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
