import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../durable/temp-dir';
import { boundaryAgent } from './support/boundary-agent';
import { cellName, Cell } from './support/matrix';
import { DURABLE_STORE_KINDS, useScenarioStores } from './support/stores';

jest.setTimeout(90_000);
const openStore = useScenarioStores('crash');
const temp = makeTempDir('conformance-crash');
afterAll(() => temp.cleanup());
const worker = join(__dirname, 'support', 'boundary-worker.ts');

type Boundary = 'before-admission' | 'after-admission' | 'before-next-request' | 'during-compensation';

function startWorker(address: string, dir: string, env: Record<string, string> = {}) {
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

const ledger = (dir: string, name: string): string[] =>
  existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').trim().split('\n') : [];

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts the run in a child process, SIGKILLs it at `stopAt`, and resumes it in another one. */
async function killAt(cell: Cell, stopAt: string, env: Record<string, string> = {}) {
  const opened = await openStore(cell.store as 'sqlite');
  const dir = makeTempDir(`crash-${stopAt}`).path;
  const first = startWorker(opened.address, dir, { STOP_AT: stopAt, ...env });
  await until(() => existsSync(join(dir, 'at-boundary')) || first.child.exitCode !== null, `boundary ${stopAt}`);
  first.child.kill('SIGKILL');
  const killed = await first.done;
  expect(killed.stderr).toBe('');
  expect(killed.code).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 400)); // the dead worker's lease expires
  // The resume runs here, as a restarted worker would, on a store opened anew.
  const store = await opened.reopen();
  const result = await boundaryAgent(store, dir).runner.resume('crash-run', { store });
  const record = (await opened.store.loadRun('crash-run'))!;
  return { dir, result, record };
}

const rows = (boundaries: readonly Boundary[]): [string, Cell, Boundary][] =>
  DURABLE_STORE_KINDS.flatMap((store) =>
    boundaries.map((boundary): [string, Cell, Boundary] => {
      const cell: Cell = { store, entry: 'resume', client: 'scripted' };
      return [cellName(cell, boundary), cell, boundary];
    }),
  );

describe('SIGKILL at every step boundary: each side effect at most once, unknown outcomes say so, resume completes', () => {
  describe('langgraph #6603, #6208, langgraphjs #1552, inngest/agent-kit #196: side effects re-run on resume', () => {
    it.concurrent.each(rows(['before-admission', 'after-admission', 'before-next-request', 'during-compensation']))(
      '%s',
      async (_name, cell, boundary) => {
        const { dir, result, record } = await killAt(cell, boundary);
        expect(ledger(dir, 'charge.ledger')).toHaveLength(1);
        expect(record.status).toBe('completed');
        expect(record.messages.filter((message) => message.role === 'tool')).toHaveLength(1);
        const stored = record.toolCalls.find((call) => call.callId === 'call_charge')!;
        if (boundary === 'before-admission' || boundary === 'during-compensation') {
          expect(stored.outcome!.error!.code).toBe('outcome_unknown');
          expect(result.toolCalls.map((call) => (call.outcome.ok ? undefined : call.outcome.error.code))).toEqual([
            'outcome_unknown',
          ]);
        } else expect(stored.outcome).toEqual({ ok: true, data: { charged: 500 } });
        if (boundary === 'during-compensation') expect(ledger(dir, 'compensate.ledger')).toHaveLength(1);
        expect(result.stopReason).toBe('end_turn');
      },
    );
  });
});
