import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';

jest.setTimeout(180_000);
const temps: { cleanup: () => void }[] = [];
const schemas = new TestSchemas();
afterAll(async () => {
  temps.forEach((temp) => temp.cleanup());
  await schemas.dropAll();
});

const worker = join(__dirname, 'agent-tree-worker.ts');

interface Printed {
  decided: string[];
  stopReason: string;
  text: string;
  waiting: { error: { details?: { childRunId: string; waitingRunIds: string[] } } }[];
}

/** Runs the worker; with `hold`, resolves with its first line while it keeps running, for the test to kill it. */
function runWorker(
  storeArg: string,
  dir: string,
  mode: 'start' | 'resume' | 'decide',
  hold = false,
): Promise<{ printed: Printed; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', worker, storeArg, dir, mode, 'tree'],
    {
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1', HOLD: hold ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGKILL');
  expect(await exited).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 600)); // the dead worker's leases expire
}

function count(dir: string, tool: string): number {
  const path = join(dir, `${tool}.count`);
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').length : 0;
}

describe.each([
  ['SQLite', (dir: string) => join(dir, 'runs.db')],
  ['PostgreSQL', () => `${requirePostgresUrl()}#${schemas.fresh()}`],
])('an agent tree across SIGKILLed processes (%s)', (_name, storeOf) => {
  it('each process is killed while the tree waits; fresh processes decide and resume; every side effect in the tree runs exactly once', async () => {
    const temp = makeTempDir('agent-crash');
    temps.push(temp);
    const dir = temp.path;
    const storeArg = storeOf(dir);

    let { printed, child } = await runWorker(storeArg, dir, 'start', true);
    expect(printed.stopReason).toBe('awaiting_approval');
    await killed(child);

    ({ printed, child } = await runWorker(storeArg, dir, 'decide', true));
    expect(printed.decided).toEqual(['tree:delegate']);
    expect(printed.stopReason).toBe('awaiting_approval');
    const childRunId = printed.waiting[0].error.details!.childRunId;
    await killed(child);

    ({ printed, child } = await runWorker(storeArg, dir, 'decide', true));
    expect(printed.decided).toEqual([`${childRunId}:cleanup`]);
    expect(printed.stopReason).toBe('awaiting_approval');
    const waitingRunIds = printed.waiting[0].error.details!.waitingRunIds;
    expect(waitingRunIds).toHaveLength(2);
    expect(waitingRunIds[0]).toBe(childRunId);
    expect(count(dir, 'delete_file')).toBe(0);
    await killed(child);

    ({ printed } = await runWorker(storeArg, dir, 'decide'));
    expect(printed.decided).toEqual([`${waitingRunIds[1]}:delete_file`]);
    expect(printed.stopReason).toBe('end_turn');
    expect(printed.text).toContain('grandchild done: delete_file done');
    expect([count(dir, 'notify'), count(dir, 'lookup'), count(dir, 'delete_file')]).toEqual([1, 1, 1]);
  });
});
