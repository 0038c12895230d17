import { QueueWorker, startWorker } from '../../lib/queue';
import { describePostgres } from '../durable/postgres-env';
import { CallCounts, countingAgent, storedRowsOf } from './counting-agent';
import { QueueFixture, useQueueFixtures } from './queue-fixture';
import { waitFor } from './worker-processes';

const fixture = useQueueFixtures();

/** Writes a job row by hand into pg-boss's job table, as anyone with access to the queue's schema could. */
async function insertJob(f: QueueFixture, data: unknown): Promise<void> {
  await f.pool.query(`INSERT INTO "${f.queueSchema}".job (name, data) VALUES ($1, $2::jsonb)`, [
    'wuwe-runs',
    JSON.stringify(data),
  ]);
}

/** Runs `body` with `worker`, and stops the worker after it, whatever happened. */
async function stopAfter(worker: QueueWorker, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    await worker.stop();
  }
}

function counters(): { reader: CallCounts; admin: CallCounts } {
  return { reader: { resumes: 0, toolCalls: 0 }, admin: { resumes: 0, toolCalls: 0 } };
}

describePostgres('startWorker: a job is checked against the run record', () => {
  it('a job naming another agent than the run was enqueued for is dead-lettered as job_mismatch; nothing runs, the record is unchanged', async () => {
    const f = await fixture();
    const runId = await f.queue.enqueue({ agent: 'reader', input: 'read it' });
    // Only the forged job is left for the run.
    await f.pool.query(`DELETE FROM "${f.queueSchema}".job WHERE data->>'runId' = $1`, [runId]);
    const before = await storedRowsOf(f.pool, f.storeSchema, runId);
    await insertJob(f, { runId, agent: 'admin', reason: 'enqueued' });
    const counts = counters();
    const errors: unknown[] = [];
    const worker = startWorker({
      queue: f.queue,
      agents: { reader: countingAgent(counts.reader), admin: countingAgent(counts.admin) },
      pollIntervalMs: 50,
      onError: (error) => errors.push(error),
    });
    await stopAfter(worker, () =>
      waitFor(
        async () => counts.admin.resumes + counts.reader.resumes > 0 || (await f.queue.deadLetters()).length === 1,
        30_000,
        'a dead letter',
      ),
    );
    expect(counts).toEqual(counters());
    const [dead] = await f.queue.deadLetters();
    expect(dead).toMatchObject({ runId, agent: 'admin', lastError: { code: 'job_mismatch' } });
    expect(JSON.stringify(dead.lastError)).toContain(
      "run '" + runId + "' was enqueued for agent 'reader', the job names 'admin'",
    );
    expect(errors).toEqual([expect.objectContaining({ code: 'job_mismatch', runId })]);
    expect(counts).toEqual(counters());
    expect(await storedRowsOf(f.pool, f.storeSchema, runId)).toEqual(before);
  });

  it('jobs naming a run no queue enqueued, a run of another queue, or no run at all are dead-lettered as job_mismatch; nothing runs', async () => {
    const f = await fixture();
    await f.store.createRun({
      runId: 'never-enqueued',
      status: 'running',
      metadata: { team: 'a' },
      messages: [{ role: 'user', content: 'act now' }],
    });
    await f.store.createRun({
      runId: 'other-queue',
      status: 'running',
      metadata: {
        queue: {
          agent: 'reader',
          maxSteps: null,
          enqueuedAt: new Date().toISOString(),
          queueName: 'elsewhere',
          queueSchema: f.queueSchema,
        },
      },
      messages: [{ role: 'user', content: 'act now' }],
    });
    const runIds = ['never-enqueued', 'other-queue'];
    const before = await Promise.all(runIds.map((runId) => storedRowsOf(f.pool, f.storeSchema, runId)));
    for (const runId of runIds) await insertJob(f, { runId, agent: 'reader', reason: 'enqueued' });
    await insertJob(f, { agent: 'reader' });
    await insertJob(f, null);
    await insertJob(f, { runId: ['never-enqueued'], agent: 'reader' });
    const counts = counters();
    const worker = startWorker({
      queue: f.queue,
      agents: { reader: countingAgent(counts.reader), admin: countingAgent(counts.admin) },
      pollIntervalMs: 50,
    });
    await stopAfter(worker, () =>
      waitFor(
        async () => counts.admin.resumes + counts.reader.resumes > 0 || (await f.queue.deadLetters()).length === 5,
        30_000,
        'five dead letters',
      ),
    );
    expect(counts).toEqual(counters());
    const dead = await f.queue.deadLetters();
    expect(dead.map((letter) => (letter.lastError as { code?: string }).code)).toEqual(Array(5).fill('job_mismatch'));
    expect(dead.map((letter) => letter.runId).sort()).toEqual(['', '', '', 'never-enqueued', 'other-queue']);
    expect(counts).toEqual(counters());
    expect(await Promise.all(runIds.map((runId) => storedRowsOf(f.pool, f.storeSchema, runId)))).toEqual(before);
  });

  it('the agent a run was enqueued for executes it as before', async () => {
    const f = await fixture();
    const counts = counters();
    const worker = startWorker({
      queue: f.queue,
      agents: { reader: countingAgent(counts.reader), admin: countingAgent(counts.admin) },
      pollIntervalMs: 50,
    });
    const runId = await f.queue.enqueue({ agent: 'reader', input: 'read it' });
    await stopAfter(worker, () =>
      waitFor(async () => (await f.store.loadRun(runId))?.status === 'completed', 30_000, 'completed'),
    );
    expect(counts).toEqual({ reader: { resumes: 1, toolCalls: 1 }, admin: { resumes: 0, toolCalls: 0 } });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a run enqueued for agent %p fails as unknown_agent on a worker without it, nothing runs',
    async (name) => {
      const f = await fixture({ maxAttempts: 1 });
      const counts = counters();
      const runId = await f.queue.enqueue({ agent: name, input: 'act now' });
      const worker = startWorker({
        queue: f.queue,
        agents: { reader: countingAgent(counts.reader) },
        pollIntervalMs: 50,
      });
      await stopAfter(worker, () =>
        waitFor(async () => (await f.queue.deadLetters()).length === 1, 30_000, 'a dead letter'),
      );
      const [dead] = await f.queue.deadLetters();
      expect(dead).toMatchObject({ runId, agent: name, lastError: { code: 'unknown_agent' } });
      expect(counts).toEqual(counters());
    },
  );
});
