import { spawn } from 'node:child_process';
import { describePostgres } from '../durable/postgres-env';
import { QueueFixture, useQueueFixtures } from './queue-fixture';
import { waitFor, workerBundle } from './worker-processes';

const fixture = useQueueFixtures();

/** How long a stopped worker's process may take to exit by itself. */
const EXIT_BOUND_MS = 8_000;

/** Starts the embedded worker process, lets it complete one run, sends SIGTERM, and reports how the process ended. */
async function runThenTerminate(
  f: QueueFixture,
  mode: 'owned' | 'started',
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; exitMs: number }> {
  const child = spawn(process.execPath, [workerBundle('embedded-worker-process.ts')], {
    env: {
      ...process.env,
      WUWE_EMBEDDED_MODE: mode,
      WUWE_EMBEDDED_WORKER: JSON.stringify({ url: f.url, storeSchema: f.storeSchema, queueSchema: f.queueSchema }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    await waitFor(() => stdout.includes('ready\n') || child.exitCode !== null, 30_000, 'worker ready');
    const runId = await f.queue.enqueue({ agent: 'counting', input: 'act now' });
    await waitFor(
      async () => (await f.store.loadRun(runId))?.status === 'completed',
      30_000,
      'run completed by the worker process',
    );
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const bound = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), EXIT_BOUND_MS).unref(),
    );
    const ended = await Promise.race([exited, bound]);
    return ended === 'still running'
      ? { code: null, signal: null, stdout, stderr, exitMs: Infinity }
      : { ...ended, stdout, stderr, exitMs: Date.now() - signalledAt };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describePostgres('a process embedding a worker exits on its own once the worker is stopped', () => {
  it('openQueueWorker: stop() drains and closes the store and queue it opened; the process exits without process.exit', async () => {
    const f = await fixture();
    const ended = await runThenTerminate(f, 'owned');
    expect(ended).toMatchObject({
      code: 0,
      signal: null,
      stdout: 'ready\nstopped {"resumes":1,"toolCalls":1}\n',
      stderr: '',
    });
    expect(ended.exitMs).toBeLessThan(EXIT_BOUND_MS);
  });

  it('startWorker: stop(), then closing the queue and the store the caller opened, lets the process exit', async () => {
    const f = await fixture();
    const ended = await runThenTerminate(f, 'started');
    expect(ended).toMatchObject({
      code: 0,
      signal: null,
      stdout: 'ready\nstopped {"resumes":1,"toolCalls":1}\n',
      stderr: '',
    });
    expect(ended.exitMs).toBeLessThan(EXIT_BOUND_MS);
  });
});
