import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import type { WorkerProcessConfig } from './queue-worker-process';

const root = resolve(__dirname, '../..');
const bundles = new Map<string, string>();

/**
 * A worker script of this folder bundled once per process into one CommonJS file (packages left
 * external), so that a (re)started worker loads in a fraction of a second: under ts-node it took 25 s
 * on a loaded machine, longer than the chaos killer's interval. The directory is removed when this
 * process exits.
 */
export function workerBundle(script = 'queue-worker-process.ts'): string {
  const known = bundles.get(script);
  if (known !== undefined) return known;
  const directory = mkdtempSync(join(tmpdir(), 'wuwe-queue-worker-'));
  symlinkSync(join(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
  const outfile = join(directory, basename(script).replace(/\.ts$/, '.js'));
  buildSync({
    entryPoints: [resolve(__dirname, script)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  bundles.set(script, outfile);
  return outfile;
}

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

/** Spawns a worker process (the bundled worker script, or `script`: a path from this folder) with `env` added. */
export function spawnWorker(
  config: WorkerProcessConfig,
  env: Record<string, string> = {},
  script?: string,
): WorkerProcess {
  const child = spawn(process.execPath, [workerBundle(script)], {
    env: { ...process.env, ...env, WUWE_QUEUE_WORKER: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let readyNow = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  ready.then(
    () => (readyNow = child.exitCode === null && child.signalCode === null),
    () => undefined,
  );
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) =>
      child.on('exit', (code, signal) => {
        readyNow = false;
        markReady();
        resolve({ code, signal, stdout, stderr });
      }),
  );
  return { child, ready, exited, isReady: () => readyNow };
}

/** Polls `condition` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
