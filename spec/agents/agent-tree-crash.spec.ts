import { join } from 'node:path';
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

const worker = join(__dirname, 'agent-tree-worker.ts');

interface Printed {
  decided: string[];
  stopReason: string;
  text: string;
  waiting: { error: { details?: { childRunId: string; waitingRunIds: string[] } } }[];
}

/** Runs the worker; with `hold`, resolves with its first line while it keeps running, for the test to kill it. */
function runWorker(storeArg: string, dir: string, mode: 'start' | 'resume' | 'decide', hold = false) {
  return runPrintingWorker<Printed>(worker, [storeArg, dir, mode, 'tree'], { HOLD: hold ? '1' : '0' });
}

const count = countOf;

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
