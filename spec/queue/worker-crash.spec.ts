import { describePostgres, TestSchemas } from '../durable/postgres-env';
import { openQueueFixture, QueueFixture } from './queue-fixture';
import { spawnWorker, waitFor, WorkerProcess } from './worker-processes';

jest.setTimeout(120_000);
const schemas = new TestSchemas();
const fixtures: QueueFixture[] = [];
const processes: WorkerProcess[] = [];
afterAll(async () => {
  for (const worker of processes)
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await Promise.all(fixtures.map((fixture) => fixture.close().catch(() => undefined)));
  await schemas.dropAll();
});

function spawn(f: QueueFixture, env: Record<string, string> = {}): WorkerProcess {
  const worker = spawnWorker(f.workerConfig({ concurrency: 1 }), env);
  processes.push(worker);
  return worker;
}

/**
 * Starts a worker that hangs in `hang`, SIGKILLs it once `killWhen` holds, then lets a second worker finish the run.
 */
async function crashMidRun(hang: string, killWhen: (f: QueueFixture, runId: string) => Promise<boolean>) {
  const f = await openQueueFixture(schemas);
  fixtures.push(f);
  const first = spawn(f, { HANG_TOOL: hang });
  await first.ready;
  const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
  await waitFor(() => killWhen(f, runId), 60_000, `worker hanging in ${hang}`);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  const second = spawn(f);
  await waitFor(
    async () => (await f.store.loadRun(runId))?.status === 'completed',
    60_000,
    'run completed on the second worker',
  );
  second.child.kill('SIGTERM');
  const stopped = await second.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.stderr).toBe('');
  return { f, runId, record: (await f.store.loadRun(runId))! };
}

describePostgres('a worker SIGKILLed mid-run', () => {
  it('mid non-idempotent call: the run completes on another worker, the call is outcome_unknown and its effect is in the ledger once', async () => {
    const { f, runId, record } = await crashMidRun(
      'charge',
      async (fixture, id) => (await fixture.ledger(id)).length === 1,
    );
    expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    const charge = record.toolCalls.find((call) => call.toolName === 'charge')!;
    expect(charge.outcome).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } });
    expect(record.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  });

  it('after admitted calls: their outcomes are reused, not re-run; the idempotent call killed mid-call runs again', async () => {
    const { f, runId, record } = await crashMidRun('lookup', async (fixture, id) => {
      const calls = (await fixture.store.loadRun(id))?.toolCalls ?? [];
      return (
        calls.some((call) => call.callId === 'call_3') &&
        calls.filter((call) => call.status === 'admitted').length === 2
      );
    });
    expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    // Recorded in the order they started: turn 2's notify and lookup start in parallel, in either order.
    expect(record.toolCalls.map((call) => [call.toolName, call.status, call.outcome?.ok]).sort()).toEqual([
      ['charge', 'admitted', true],
      ['lookup', 'admitted', true],
      ['notify', 'admitted', true],
    ]);
    expect(
      record.messages
        .filter((message) => message.role === 'tool')
        .map((message) => message.role === 'tool' && message.isError),
    ).toEqual([false, false, false]);
  });
});
