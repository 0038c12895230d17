import { RunQueueError, startWorker } from '../../lib/queue';
import { describePostgres, TestSchemas } from '../durable/postgres-env';
import { ledgerAgent } from './ledger-agent';
import { openQueueFixture, QueueFixture } from './queue-fixture';
import { waitFor } from './worker-processes';

jest.setTimeout(60_000);
const schemas = new TestSchemas();
const fixtures: QueueFixture[] = [];
afterAll(async () => {
  await Promise.all(fixtures.map((fixture) => fixture.close().catch(() => undefined)));
  await schemas.dropAll();
});

async function fixture(options: Parameters<typeof openQueueFixture>[1] = {}): Promise<QueueFixture> {
  const opened = await openQueueFixture(schemas, options);
  fixtures.push(opened);
  return opened;
}

async function statusOf(f: QueueFixture, runId: string): Promise<string | undefined> {
  return (await f.store.loadRun(runId))?.status;
}

describePostgres('RunQueue with an in-process worker', () => {
  it('enqueue creates the run with its prompt and a worker completes it through resume()', async () => {
    const f = await fixture();
    const runIds = [await f.queue.enqueue({ agent: 'ledger', input: 'charge it' }), await f.queue.enqueue({ agent: 'ledger', input: 'charge it too', options: { runId: 'run-two', metadata: { team: 'a' } } })];
    expect(runIds[1]).toBe('run-two');
    const created = await f.store.loadRun('run-two');
    expect(created).toMatchObject({ status: 'running', messages: [{ role: 'user', content: 'charge it too' }], metadata: { team: 'a', queue: { agent: 'ledger', maxSteps: null } } });
    const worker = startWorker({ queue: f.queue, agents: { ledger: ledgerAgent(f.pool, f.storeSchema) }, concurrency: 2, pollIntervalMs: 50 });
    await waitFor(async () => (await Promise.all(runIds.map((runId) => statusOf(f, runId)))).every((status) => status === 'completed'), 30_000, 'both runs completed');
    expect(await worker.stop()).toEqual({ drained: true, abandonedRunIds: [] });
    for (const runId of runIds) expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    const record = await f.store.loadRun(runIds[0]);
    expect(record!.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
    expect(record!.toolCalls.map((call) => [call.toolName, call.status])).toEqual([['charge', 'admitted'], ['notify', 'admitted'], ['lookup', 'admitted']]);
  });

  it('enqueue refuses an unknown agent, a taken run id and a bad maxSteps, and writes nothing', async () => {
    const f = await fixture({ agents: ['ledger'] });
    await expect(f.queue.enqueue({ agent: 'nobody', input: 'x' })).rejects.toMatchObject({ code: 'unknown_agent' });
    await f.queue.enqueue({ agent: 'ledger', input: 'x', options: { runId: 'taken' } });
    await expect(f.queue.enqueue({ agent: 'ledger', input: 'x', options: { runId: 'taken' } })).rejects.toMatchObject({ code: 'run_exists' });
    await expect(f.queue.enqueue({ agent: 'ledger', input: 'x', options: { maxSteps: 0 } })).rejects.toThrow(RunQueueError);
    expect((await f.store.listRuns()).map((run) => run.runId)).toEqual(['taken']);
  });
});
