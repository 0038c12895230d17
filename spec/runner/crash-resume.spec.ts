import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunStore } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { describePostgres, requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';

const temps: { cleanup: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.cleanup()));

function tempDir(prefix: string): string {
  const temp = makeTempDir(prefix);
  temps.push(temp);
  return temp.path;
}
jest.setTimeout(120_000);

const worker = join(__dirname, 'crash-worker.ts');

function startWorker(
  dir: string,
  mode: 'start' | 'resume',
  runId: string,
  env: Record<string, string> = {},
  storeArg = join(dir, 'runs.db'),
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', worker, storeArg, dir, mode, runId], {
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

function lines(dir: string, tool: string): string[] {
  const path = join(dir, `${tool}.count`);
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : [];
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function admitted(dir: string, runId: string, callId: string): Promise<boolean> {
  if (!existsSync(join(dir, 'runs.db'))) return false;
  const store = new SqliteRunStore(join(dir, 'runs.db'));
  try {
    const record = await store.loadRun(runId);
    return record?.toolCalls.some((call) => call.callId === callId && call.status === 'admitted') ?? false;
  } finally {
    await store.close();
  }
}

async function killAndResume(dir: string, runId: string, hang: 'charge' | 'report', admittedCall: string) {
  const first = startWorker(dir, 'start', runId, { [`HANG_${hang.toUpperCase()}`]: '1' });
  await waitFor(async () => lines(dir, hang).length === 1 && (await admitted(dir, runId, admittedCall)));
  first.child.kill('SIGKILL');
  const killed = await first.done;
  expect(killed.code).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 600)); // the dead worker's lease expires
  const second = startWorker(dir, 'resume', runId);
  const finished = await second.done;
  expect(finished.stderr).toBe('');
  expect(finished.code).toBe(0);
  return JSON.parse(finished.stdout) as {
    stopReason: string;
    text: string;
    toolCalls: { toolName: string; outcome: any; content: string }[];
  };
}

describe('resume after a real crash (SIGKILL)', () => {
  it('a model reusing call_0: killed during turn 2, the resume answers turn 2 as its own call (outcome_unknown) and keeps turn 1 as it was', async () => {
    const dir = tempDir('crash-reuse');
    const runId = 'run-kill-reuse';
    const first = startWorker(dir, 'start', runId, { REUSE_IDS: '1', HANG_CHARGE_CENTS: '700' });
    await waitFor(() => lines(dir, 'charge').length === 2);
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBeNull();
    const keys = lines(dir, 'charge');
    expect(new Set(keys).size).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600)); // the dead worker's lease expires
    const second = startWorker(dir, 'resume', runId, { REUSE_IDS: '1' });
    const finished = await second.done;
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    const result = JSON.parse(finished.stdout) as { stopReason: string; toolCalls: { outcome: any }[] };
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls.map((call) => call.outcome.error?.code)).toEqual(['outcome_unknown']);
    expect(lines(dir, 'charge')).toEqual(keys);
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    const record = (await store.loadRun(runId))!;
    await store.close();
    expect(record.toolCalls.map((call) => [call.turn, call.callId, call.arguments, call.idempotencyKey])).toEqual([
      [1, 'call_0', { cents: 500 }, keys[0]],
      [2, 'call_0', { cents: 700 }, keys[1]],
    ]);
    expect(record.messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []))).toEqual([
      '{"charged":500}',
      expect.stringContaining('outcome_unknown'),
    ]);
  });

  it('a non-idempotent call killed mid-call is outcome_unknown, never re-run; the admitted one is reused', async () => {
    const dir = tempDir('crash-charge');
    const result = await killAndResume(dir, 'run-kill-charge', 'charge', 'call_report');
    expect(lines(dir, 'charge')).toHaveLength(1);
    expect(lines(dir, 'report')).toHaveLength(1);
    expect(result.stopReason).toBe('end_turn');
    expect(result.text).toBe('done');
    const charge = result.toolCalls.find((call) => call.toolName === 'charge')!;
    expect(charge.outcome.error.code).toBe('outcome_unknown');
    expect(JSON.parse(charge.content).error.code).toBe('outcome_unknown');
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    const record = (await store.loadRun('run-kill-charge'))!;
    expect(record.status).toBe('completed');
    expect(record.toolCalls.find((call) => call.callId === 'call_charge')!.outcome!.error!.code).toBe(
      'outcome_unknown',
    );
    const toolMessages = record.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => (message as any).toolCallId)).toEqual(['call_charge', 'call_report']);
    await store.close();
  });

  it('after an admission, the admitted call is reused and the idempotent call re-runs with the same key', async () => {
    const dir = tempDir('crash-report');
    const result = await killAndResume(dir, 'run-kill-report', 'report', 'call_charge');
    expect(lines(dir, 'charge')).toHaveLength(1);
    const reports = lines(dir, 'report');
    expect(reports).toHaveLength(2);
    expect(reports[0]).toBe(reports[1]);
    expect(result.toolCalls.find((call) => call.toolName === 'charge')!.outcome).toEqual({
      ok: true,
      data: { charged: 500 },
    });
    expect(result.toolCalls.find((call) => call.toolName === 'report')!.outcome).toEqual({
      ok: true,
      text: 'report written',
    });
    expect(result.text).toBe('done');
  });
});

async function raceTwoWorkers(dir: string, store: RunStore, storeArg: string): Promise<void> {
  await store.createRun({ runId: 'run-race', messages: [{ role: 'user', content: 'charge and report' }] });
  const env = { SLOW_TOOLS_MS: '800' };
  const workers = [
    startWorker(dir, 'resume', 'run-race', env, storeArg),
    startWorker(dir, 'resume', 'run-race', env, storeArg),
  ];
  const exits = await Promise.all(workers.map((worker) => worker.done));
  const winners = exits.filter((exit) => exit.code === 0);
  const losers = exits.filter((exit) => exit.code !== 0);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(1);
  expect(losers[0].stderr).toMatch(/lease_held|Another worker holds the lease|cannot be resumed/);
  expect(lines(dir, 'charge')).toHaveLength(1);
  expect(lines(dir, 'report')).toHaveLength(1);
  expect((await store.loadRun('run-race'))!.status).toBe('completed');
}

/**
 * Worker A is paused between its read of the run and its lease; worker B completes the run meanwhile.
 * A then gets the lease, but must decide from the record it reads under the lease: the run is
 * completed, so it is refused (`run_conflict`) and writes nothing.
 */
async function raceWithPausedWorker(dir: string, store: RunStore, storeArg: string): Promise<void> {
  await store.createRun({ runId: 'run-paused', messages: [{ role: 'user', content: 'charge and report' }] });
  const paused = startWorker(dir, 'resume', 'run-paused', { PAUSE_BEFORE_LEASE: '1' }, storeArg);
  await waitFor(() => existsSync(join(dir, 'paused')));
  const other = await startWorker(dir, 'resume', 'run-paused', {}, storeArg).done;
  expect(other.stderr).toBe('');
  expect(other.code).toBe(0);
  const completed = (await store.loadRun('run-paused'))!;
  expect(completed.status).toBe('completed');
  writeFileSync(join(dir, 'go'), '');
  const refused = await paused.done;
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/run_conflict|is completed and cannot be resumed/);
  const after = (await store.loadRun('run-paused'))!;
  expect({ ...after, lease: undefined }).toEqual({ ...completed, lease: undefined });
  expect(lines(dir, 'charge')).toHaveLength(1);
  expect(lines(dir, 'report')).toHaveLength(1);
}

describe('a worker paused between its read and its lease, while another completes the run', () => {
  it('SQLite: is refused and writes nothing', async () => {
    const dir = tempDir('paused-sqlite');
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    try {
      await raceWithPausedWorker(dir, store, join(dir, 'runs.db'));
    } finally {
      await store.close();
    }
  });
});

describePostgres('a worker paused between its read and its lease on PostgreSQL', () => {
  const schemas = new TestSchemas();
  afterAll(() => schemas.dropAll());

  it('is refused and writes nothing', async () => {
    const url = requirePostgresUrl();
    const schema = schemas.fresh();
    const store = await PostgresRunStore.open({ connectionString: url, schema });
    try {
      await raceWithPausedWorker(tempDir('paused-pg'), store, `${url}#${schema}`);
    } finally {
      await store.close();
    }
  });
});

describe('two worker processes race for one run through runner.resume', () => {
  it('SQLite: one worker holds the lease and alone executes the calls', async () => {
    const dir = tempDir('race-sqlite');
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    try {
      await raceTwoWorkers(dir, store, join(dir, 'runs.db'));
    } finally {
      await store.close();
    }
  });
});

describePostgres('two worker processes race for one run on PostgreSQL', () => {
  const schemas = new TestSchemas();
  afterAll(() => schemas.dropAll());

  it('one worker holds the lease and alone executes the calls', async () => {
    const url = requirePostgresUrl();
    const schema = schemas.fresh();
    const store = await PostgresRunStore.open({ connectionString: url, schema });
    try {
      await raceTwoWorkers(tempDir('race-pg'), store, `${url}#${schema}`);
    } finally {
      await store.close();
    }
  });
});
