import { ChildProcess, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunStore } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { WorkerReport } from './lease-worker';
import { describePostgres, requirePostgresUrl, TestSchemas } from './postgres-env';
import { makeTempDir } from './temp-dir';

const dir = makeTempDir('lease-race');
const schemas = new TestSchemas();
afterAll(async () => {
  dir.cleanup();
  await schemas.dropAll();
});

jest.setTimeout(60_000);

interface Race {
  kind: 'sqlite' | 'postgres';
  location: string;
  schema: string;
}

function startWorker(
  race: Race,
  workerId: string,
  counterFile: string,
  ttlMs: number,
  crash = false,
): { child: ChildProcess; ready: Promise<void>; done: Promise<WorkerReport | number> } {
  const options = { ...race, runId: 'race-run', workerId, counterFile, ttlMs, crash };
  const child = fork(join(__dirname, 'lease-worker.ts'), [JSON.stringify(options)], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: 'inherit',
  });
  const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
  const done = new Promise<WorkerReport | number>((resolve) => {
    let report: WorkerReport | undefined;
    child.on('message', (message) => {
      if (typeof message === 'object') report = message as WorkerReport;
    });
    child.on('exit', (code) => resolve(report ?? code ?? -1));
  });
  return { child, ready, done };
}

/** Two processes race for one run; returns their reports and the executions counted. */
async function raceTwo(
  race: Race,
  counterFile: string,
  ttlMs: number,
): Promise<{ reports: (WorkerReport | number)[]; executions: string[] }> {
  const workers = [
    startWorker(race, 'worker-a', counterFile, ttlMs),
    startWorker(race, 'worker-b', counterFile, ttlMs),
  ];
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.child.send('go');
  const reports = await Promise.all(workers.map((worker) => worker.done));
  return { reports, executions: readFileSync(counterFile, 'utf8').split('\n').filter(Boolean) };
}

function describeRace(name: string, setup: () => Promise<{ race: Race; store: RunStore }>): void {
  describe(`${name}: two worker processes`, () => {
    it('lease the run to one of them, which alone executes the call', async () => {
      const { race, store } = await setup();
      await store.createRun({ runId: 'race-run' });
      const counterFile = join(dir.path, `${name}-count-1`);
      writeFileSync(counterFile, '');
      const { reports, executions } = await raceTwo(race, counterFile, 60_000);
      expect(reports.filter((report) => typeof report === 'object' && report.leased)).toHaveLength(1);
      expect(executions).toHaveLength(1);
      const record = (await store.loadRun('race-run'))!;
      expect(record.toolCalls).toHaveLength(1);
      expect(record.toolCalls[0].status).toBe('admitted');
      await store.close();
    });

    it('after a crash, the worker taking over the expired lease does not execute the unknown call again', async () => {
      const { race, store } = await setup();
      await store.createRun({ runId: 'race-run' });
      const counterFile = join(dir.path, `${name}-count-2`);
      writeFileSync(counterFile, '');
      const crashed = startWorker(race, 'worker-a', counterFile, 300, true);
      await crashed.ready;
      crashed.child.send('go');
      expect(await crashed.done).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const next = startWorker(race, 'worker-b', counterFile, 60_000);
      await next.ready;
      next.child.send('go');
      expect(await next.done).toEqual({ workerId: 'worker-b', leased: true, executed: false, callStatus: 'started' });
      expect(readFileSync(counterFile, 'utf8').split('\n').filter(Boolean)).toEqual(['worker-a']);
      await store.close();
    });
  });
}

let sqliteCount = 0;
describeRace('SQLite', async () => {
  const location = join(dir.path, `race-${++sqliteCount}.db`);
  return { race: { kind: 'sqlite', location, schema: '' }, store: new SqliteRunStore(location) };
});

describePostgres('PostgreSQL lease race', () => {
  describeRace('PostgreSQL', async () => {
    const schema = schemas.fresh();
    const location = requirePostgresUrl();
    const store = await PostgresRunStore.open({ connectionString: location, schema, maxConnections: 2 });
    return { race: { kind: 'postgres', location, schema }, store };
  });
});
