import { join } from 'node:path';
import { handoffsOf } from '../../lib/agents';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { RunStore } from '../../lib';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';
import { countOf } from './agent-tree';
import { killed, runPrintingWorker } from './worker-process';

jest.setTimeout(180_000);
const temps: { cleanup: () => void }[] = [];
const schemas = new TestSchemas();
afterAll(async () => {
  temps.forEach((temp) => temp.cleanup());
  await schemas.dropAll();
});

const worker = join(__dirname, 'handoff-worker.ts');

interface Printed {
  holding?: string;
  stopReason?: string;
  text?: string;
  offered?: Record<string, string[][]>;
}

/** Runs the worker; resolves with its first line (with `hold`, while it hangs, for the test to kill it). */
function runWorker(storeArg: string, dir: string, mode: 'start' | 'resume', hold = '') {
  return runPrintingWorker<Printed>(worker, [storeArg, dir, mode, 'chain'], { HOLD: hold });
}

const count = countOf;

describe.each([
  ['SQLite', (dir: string) => join(dir, 'runs.db')],
  ['PostgreSQL', () => `${requirePostgresUrl()}#${schemas.fresh()}`],
])('a handoff chain across SIGKILLed processes (%s)', (_name, storeOf) => {
  it('killed while billing holds the run, then while refunds does; fresh processes continue with the holder; every side effect once', async () => {
    const temp = makeTempDir('handoff-crash');
    temps.push(temp);
    const dir = temp.path;
    const storeArg = storeOf(dir);

    let { printed, child } = await runWorker(storeArg, dir, 'start', 'billing');
    expect(printed).toEqual({ holding: 'billing' });
    await killed(child);
    expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 0, 0]);

    ({ printed, child } = await runWorker(storeArg, dir, 'resume', 'refunds'));
    expect(printed).toEqual({ holding: 'refunds' });
    await killed(child);
    expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 1, 0]);

    ({ printed } = await runWorker(storeArg, dir, 'resume'));
    expect(printed).toMatchObject({ stopReason: 'end_turn', text: 'refunds done' });
    // The last process asked refunds only, and offered it refunds' tools only.
    expect(printed.offered).toEqual({ triage: [], billing: [], refunds: [['refund'], ['refund']] });
    expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 1, 1]);

    const store: RunStore = storeArg.startsWith('postgres://')
      ? await PostgresRunStore.open({ connectionString: storeArg.split('#')[0], schema: storeArg.split('#')[1] })
      : new SqliteRunStore(storeArg);
    try {
      const record = await store.loadRun('chain');
      expect(record?.status).toBe('completed');
      expect(handoffsOf(record!).map((entry) => `${entry.from}->${entry.to}`)).toEqual([
        'triage->billing',
        'billing->refunds',
      ]);
    } finally {
      await store.close();
    }
  });
});
