import { RunQueueError, startWorker } from '../../lib/queue';
import { describePostgres } from '../durable/postgres-env';
import { ledgerAgent } from './ledger-agent';
import { QueueFixture, useQueueFixtures } from './queue-fixture';
import { waitFor } from './worker-processes';

const fixture = useQueueFixtures();

async function statusOf(f: QueueFixture, runId: string): Promise<string | undefined> {
  return (await f.store.loadRun(runId))?.status;
}

describePostgres('RunQueue with an in-process worker', () => {
  it('enqueue creates the run with its prompt and a worker completes it through resume()', async () => {
    const f = await fixture();
    const runIds = [
      await f.queue.enqueue({ agent: 'ledger', input: 'charge it' }),
      await f.queue.enqueue({
        agent: 'ledger',
        input: 'charge it too',
        options: { runId: 'run-two', metadata: { team: 'a' } },
      }),
    ];
    expect(runIds[1]).toBe('run-two');
    const created = await f.store.loadRun('run-two');
    expect(created).toMatchObject({
      status: 'running',
      messages: [{ role: 'user', content: 'charge it too' }],
      metadata: { team: 'a', queue: { agent: 'ledger', maxSteps: null } },
    });
    const worker = startWorker({
      queue: f.queue,
      agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
      concurrency: 2,
      pollIntervalMs: 50,
    });
    await waitFor(
      async () =>
        (await Promise.all(runIds.map((runId) => statusOf(f, runId)))).every((status) => status === 'completed'),
      30_000,
      'both runs completed',
    );
    expect(await worker.stop()).toEqual({ drained: true, abandonedRunIds: [] });
    for (const runId of runIds) expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
    const record = await f.store.loadRun(runIds[0]);
    expect(record!.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
    // Calls are recorded in the order they started: turn 2's notify and lookup run in parallel, in either order.
    const calls = record!.toolCalls.map((call) => [call.turn, call.toolName, call.status].join(' '));
    expect(calls[0]).toBe('1 charge admitted');
    expect([...calls].sort()).toEqual(['1 charge admitted', '2 lookup admitted', '2 notify admitted']);
  });

  it('enqueue refuses an unknown agent, a taken run id and a bad maxSteps, and writes nothing', async () => {
    const f = await fixture({ agents: ['ledger'] });
    await expect(f.queue.enqueue({ agent: 'nobody', input: 'x' })).rejects.toMatchObject({ code: 'unknown_agent' });
    await f.queue.enqueue({ agent: 'ledger', input: 'x', options: { runId: 'taken' } });
    await expect(f.queue.enqueue({ agent: 'ledger', input: 'x', options: { runId: 'taken' } })).rejects.toMatchObject({
      code: 'run_exists',
    });
    await expect(f.queue.enqueue({ agent: 'ledger', input: 'x', options: { maxSteps: 0 } })).rejects.toThrow(
      RunQueueError,
    );
    expect((await f.store.listRuns()).map((run) => run.runId)).toEqual(['taken']);
  });
});

/** Runs `body` with environment variables set for the ledger agent of this process. */
async function withEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

describePostgres('RunQueue: cancel, approvals, dead letters, drain, expiry', () => {
  it('a worker beats for its jobs: a run longer than expireAfterSeconds is not taken up again while its worker lives', async () => {
    const f = await fixture({ expireAfterSeconds: 1 });
    await withEnv({ TOOL_DELAY_MS: '1200' }, async () => {
      const agents = { ledger: ledgerAgent(f.pool, f.storeSchema) };
      const first = startWorker({
        queue: f.queue,
        agents,
        concurrency: 1,
        pollIntervalMs: 50,
        cancelCheckIntervalMs: 200,
      });
      const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
      await waitFor(() => first.runningRunIds().length === 1, 30_000, 'first worker executing');
      const taken: string[] = [];
      const second = startWorker({
        queue: f.queue,
        agents: { ledger: { runner: { resume: (id) => (taken.push(id), agents.ledger.runner.resume(id)) } } },
        concurrency: 1,
        pollIntervalMs: 50,
      });
      await waitFor(async () => (await statusOf(f, runId)) === 'completed', 40_000, 'completed');
      await Promise.all([first.stop(), second.stop()]);
      expect(taken).toEqual([]);
      const jobs = await f.pool.query(`SELECT retry_count FROM "${f.queueSchema}".job WHERE name = 'wuwe-runs'`);
      expect(jobs.rows).toEqual([{ retry_count: 0 }]);
    });
  });

  it('cancel of a queued run cancels its job and the run; no worker executes it', async () => {
    const f = await fixture();
    const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
    expect(await f.queue.cancel(runId)).toEqual({ runId, result: 'cancelled', status: 'cancelled' });
    const worker = startWorker({
      queue: f.queue,
      agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
      pollIntervalMs: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await worker.stop();
    expect(await statusOf(f, runId)).toBe('cancelled');
    expect(await f.ledger(runId)).toEqual([]);
    expect(await f.queue.cancel(runId)).toEqual({ runId, result: 'finished', status: 'cancelled' });
  });

  it('cancel of a running run: the worker holding it stops the run, recorded as cancelled', async () => {
    const f = await fixture();
    await withEnv({ HANG_TOOL: 'lookup' }, async () => {
      const worker = startWorker({
        queue: f.queue,
        agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
        pollIntervalMs: 50,
        cancelCheckIntervalMs: 50,
      });
      const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
      await waitFor(
        async () => (await f.store.loadRun(runId))!.toolCalls.some((call) => call.callId === 'call_3'),
        30_000,
        'lookup started',
      );
      expect(await f.queue.cancel(runId)).toMatchObject({ runId, result: 'cancelling' });
      await waitFor(async () => (await statusOf(f, runId)) === 'cancelled', 30_000, 'run cancelled');
      expect(await worker.stop({ timeoutMs: 10_000 })).toEqual({ drained: true, abandonedRunIds: [] });
    });
  });

  it('a run suspended for approval is resumed by decideApproval and completes; a second decision enqueues nothing', async () => {
    const f = await fixture();
    const worker = startWorker({
      queue: f.queue,
      agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
      pollIntervalMs: 50,
    });
    const runId = await f.queue.enqueue({ agent: 'ledger', input: 'refund it' });
    await waitFor(async () => (await statusOf(f, runId)) === 'awaiting_approval', 30_000, 'awaiting approval');
    expect(await f.ledger(runId)).toEqual([]);
    await expect(f.queue.decideApproval(runId, 'call_9', { approved: true })).rejects.toMatchObject({
      code: 'approval_not_pending',
    });
    await expect(
      f.queue.decideApproval(runId, 'call_1', { approved: true, argumentsSha256: '0'.repeat(64) }),
    ).rejects.toMatchObject({ code: 'approval_mismatch' });
    // A decision that is not one decides nothing: a truthy string is no approval, a non-object is refused.
    for (const approved of ['false', 'no', {}, 1])
      await expect(f.queue.decideApproval(runId, 'call_1', { approved } as never)).rejects.toMatchObject({
        name: 'RunStoreError',
        code: 'record_invalid',
      });
    await expect(f.queue.decideApproval(runId, 'call_1', null as never)).rejects.toMatchObject({
      name: 'RunQueueError',
      code: 'invalid_queue_options',
    });
    expect(await statusOf(f, runId)).toBe('awaiting_approval');
    expect(await f.ledger(runId)).toEqual([]);
    const decided = await f.queue.decideApproval(runId, 'call_1', { approved: true, decidedBy: 'ops' });
    expect(decided).toMatchObject({ approval: { state: 'approved', decidedBy: 'ops' }, resumeEnqueued: true });
    await waitFor(async () => (await statusOf(f, runId)) === 'completed', 30_000, 'completed after approval');
    expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['refund', 'notify']);
    expect(await f.queue.resumeAfterApproval(runId)).toBe(false);
    await worker.stop();
  });

  it('a run that fails maxAttempts times goes to the dead letters, with its last error; retryDeadLetter takes it out', async () => {
    const f = await fixture({ maxAttempts: 2 });
    const errors: unknown[] = [];
    const worker = startWorker({
      queue: f.queue,
      agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
      pollIntervalMs: 50,
      onError: (error) => errors.push(error),
    });
    const runId = await f.queue.enqueue({ agent: 'ledger', input: 'explode now' });
    await waitFor(async () => (await f.queue.deadLetters()).length === 1, 30_000, 'a dead letter');
    const [dead] = await f.queue.deadLetters();
    expect(dead).toMatchObject({ runId, agent: 'ledger', lastError: { message: 'the model exploded' } });
    expect(errors).toHaveLength(2);
    expect(await statusOf(f, runId)).toBe('failed');
    await worker.stop();
    expect(await f.queue.retryDeadLetter(runId)).toBe(true);
    expect(await f.queue.deadLetters()).toEqual([]);
    expect(await f.queue.retryDeadLetter(runId)).toBe(false);
  });

  it('stop() drains: the runs being executed finish, and no new job is taken', async () => {
    const f = await fixture();
    await withEnv({ TOOL_DELAY_MS: '400' }, async () => {
      const worker = startWorker({
        queue: f.queue,
        agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
        concurrency: 2,
        pollIntervalMs: 50,
      });
      const runIds = [
        await f.queue.enqueue({ agent: 'ledger', input: 'a' }),
        await f.queue.enqueue({ agent: 'ledger', input: 'b' }),
      ];
      await waitFor(() => worker.runningRunIds().length === 2, 30_000, 'two runs executing');
      expect(await worker.stop()).toEqual({ drained: true, abandonedRunIds: [] });
      for (const runId of runIds) expect(await statusOf(f, runId)).toBe('completed');
      const later = await f.queue.enqueue({ agent: 'ledger', input: 'c' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await f.store.loadRun(later))!.messages).toHaveLength(1);
    });
  });

  it('a job that expires while its worker is alive: the second worker finds the lease held, follows up, and nothing runs twice', async () => {
    const f = await fixture({ expireAfterSeconds: 1 });
    await withEnv({ TOOL_DELAY_MS: '1200' }, async () => {
      const agents = { ledger: ledgerAgent(f.pool, f.storeSchema) };
      // No heartbeat within the test (cancelCheckIntervalMs of a minute), so the job expires while its worker lives.
      const first = startWorker({
        queue: f.queue,
        agents,
        concurrency: 1,
        pollIntervalMs: 50,
        leaseTtlMs: 3000,
        cancelCheckIntervalMs: 60_000,
      });
      const runId = await f.queue.enqueue({ agent: 'ledger', input: 'charge it' });
      await waitFor(() => first.runningRunIds().length === 1, 30_000, 'first worker executing');
      const second = startWorker({
        queue: f.queue,
        agents,
        concurrency: 1,
        pollIntervalMs: 50,
        leaseTtlMs: 3000,
        cancelCheckIntervalMs: 60_000,
      });
      await waitFor(async () => (await statusOf(f, runId)) === 'completed', 40_000, 'completed');
      await Promise.all([first.stop(), second.stop()]);
      expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['charge', 'notify']);
      expect(await f.queue.deadLetters()).toEqual([]);
    });
  });
});
