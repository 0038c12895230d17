import { EnqueueRunRequest, RunQueue, RunQueueError, startWorker } from '../../lib/queue';
import { describePostgres } from '../durable/postgres-env';
import { countingAgent } from './counting-agent';
import { QueueFixture, useQueueFixtures } from './queue-fixture';

const fixture = useQueueFixtures();

function deeplyNested(depth: number): unknown {
  let value: unknown = {};
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;

/** Requests `enqueue` must refuse before any SQL, with the code it must give. */
const refused: [string, unknown, string][] = [
  ['an array as metadata', { agent: 'reader', input: 'x', options: { metadata: [1, 2, 3] } }, 'invalid_queue_options'],
  ['a Date as metadata', { agent: 'reader', input: 'x', options: { metadata: new Date(0) } }, 'invalid_queue_options'],
  [
    'a Map as metadata',
    { agent: 'reader', input: 'x', options: { metadata: new Map([['a', 1]]) } },
    'invalid_queue_options',
  ],
  ['a string as metadata', { agent: 'reader', input: 'x', options: { metadata: 'team a' } }, 'invalid_queue_options'],
  [
    'metadata holding NaN',
    { agent: 'reader', input: 'x', options: { metadata: { score: NaN } } },
    'invalid_queue_options',
  ],
  [
    'metadata holding a BigInt',
    { agent: 'reader', input: 'x', options: { metadata: { big: 1n } } },
    'invalid_queue_options',
  ],
  [
    'metadata holding a function',
    { agent: 'reader', input: 'x', options: { metadata: { run: () => 1 } } },
    'invalid_queue_options',
  ],
  [
    'metadata holding undefined',
    { agent: 'reader', input: 'x', options: { metadata: { gone: undefined } } },
    'invalid_queue_options',
  ],
  [
    'metadata with a lone surrogate',
    { agent: 'reader', input: 'x', options: { metadata: { name: 'a\ud800' } } },
    'invalid_queue_options',
  ],
  [
    'metadata with a __proto__ key',
    { agent: 'reader', input: 'x', options: { metadata: JSON.parse('{"__proto__":{"admin":true}}') } },
    'invalid_queue_options',
  ],
  [
    'metadata nested 10,000 levels',
    { agent: 'reader', input: 'x', options: { metadata: deeplyNested(10_000) } },
    'invalid_queue_options',
  ],
  ['cyclic metadata', { agent: 'reader', input: 'x', options: { metadata: cyclic } }, 'invalid_queue_options'],
  [
    'metadata naming the queue’s own key',
    { agent: 'reader', input: 'x', options: { metadata: { queue: { agent: 'admin' } } } },
    'invalid_queue_options',
  ],
  ["priority 'high'", { agent: 'reader', input: 'x', options: { priority: 'high' } }, 'invalid_queue_options'],
  ['priority 1.5', { agent: 'reader', input: 'x', options: { priority: 1.5 } }, 'invalid_queue_options'],
  ['priority NaN', { agent: 'reader', input: 'x', options: { priority: NaN } }, 'invalid_queue_options'],
  ['priority Infinity', { agent: 'reader', input: 'x', options: { priority: Infinity } }, 'invalid_queue_options'],
  ['priority 2^31', { agent: 'reader', input: 'x', options: { priority: 2 ** 31 } }, 'invalid_queue_options'],
  [
    'priority -2^31 - 1',
    { agent: 'reader', input: 'x', options: { priority: -(2 ** 31) - 1 } },
    'invalid_queue_options',
  ],
  ['maxSteps 1.5', { agent: 'reader', input: 'x', options: { maxSteps: 1.5 } }, 'invalid_queue_options'],
  ["maxSteps '3'", { agent: 'reader', input: 'x', options: { maxSteps: '3' } }, 'invalid_queue_options'],
  ['maxSteps Infinity', { agent: 'reader', input: 'x', options: { maxSteps: Infinity } }, 'invalid_queue_options'],
  ['an empty run id', { agent: 'reader', input: 'x', options: { runId: '' } }, 'invalid_queue_options'],
  ['a numeric run id', { agent: 'reader', input: 'x', options: { runId: 5 } }, 'invalid_queue_options'],
  [
    'a run id with a lone surrogate',
    { agent: 'reader', input: 'x', options: { runId: 'run-\ud800' } },
    'invalid_queue_options',
  ],
  ['a run id with a NUL', { agent: 'reader', input: 'x', options: { runId: 'run\u0000one' } }, 'invalid_queue_options'],
  [
    'a run id of 10,000 characters',
    { agent: 'reader', input: 'x', options: { runId: 'r'.repeat(10_000) } },
    'invalid_queue_options',
  ],
  ['an unknown option', { agent: 'reader', input: 'x', options: { priorty: 1 } }, 'invalid_queue_options'],
  ['options that are not an object', { agent: 'reader', input: 'x', options: 'fast' }, 'invalid_queue_options'],
  ['an input with a lone surrogate', { agent: 'reader', input: 'charge \udc00' }, 'invalid_queue_options'],
  ['an input with a NUL', { agent: 'reader', input: 'charge\u0000' }, 'invalid_queue_options'],
  ['an input that is not a string', { agent: 'reader', input: 5 }, 'invalid_queue_options'],
  ['an agent name with a NUL', { agent: 'reader\u0000', input: 'x' }, 'invalid_queue_options'],
  ['an agent name with a lone surrogate', { agent: 'read\ud800', input: 'x' }, 'invalid_queue_options'],
  ['an agent name of 10,000 characters', { agent: 'a'.repeat(10_000), input: 'x' }, 'invalid_queue_options'],
  ['an agent name that is not a string', { agent: 5, input: 'x' }, 'invalid_queue_options'],
  ['a request that is not an object', null, 'invalid_queue_options'],
];

async function nothingWritten(f: QueueFixture): Promise<void> {
  expect(await f.store.listRuns()).toEqual([]);
  const jobs = await f.pool.query(`SELECT count(*)::int AS count FROM "${f.queueSchema}".job WHERE name = 'wuwe-runs'`);
  expect(jobs.rows).toEqual([{ count: 0 }]);
}

describePostgres('RunQueue.enqueue checks every option before any SQL', () => {
  it.each(refused)('refuses %s', async (_what, request, code) => {
    const f = await sharedFixture();
    const error = await f.queue.enqueue(request as EnqueueRunRequest).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(RunQueueError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code });
    await nothingWritten(f);
  });

  it('stores plain metadata as given, nested objects and arrays included, with the queue’s own part beside it', async () => {
    const f = await fixture();
    const metadata = { team: 'a', tags: ['x', 'y'], limits: { cents: 500, strict: true, note: null }, 名前: 'ü' };
    const runId = await f.queue.enqueue({
      agent: 'reader',
      input: 'x',
      options: { metadata, priority: 2 ** 31 - 1, maxSteps: 3, runId: 'run:ok/1' },
    });
    expect(runId).toBe('run:ok/1');
    const { queue, ...stored } = (await f.store.loadRun(runId))!.metadata!;
    expect(stored).toEqual(metadata);
    expect(queue).toMatchObject({ agent: 'reader', maxSteps: 3 });
    const jobs = await f.pool.query(`SELECT priority FROM "${f.queueSchema}".job WHERE name = 'wuwe-runs'`);
    expect(jobs.rows).toEqual([{ priority: 2 ** 31 - 1 }]);
  });
});

describePostgres('startWorker and RunQueue.open check their options', () => {
  it.each([
    ['pollIntervalMs beyond a timer’s range', { pollIntervalMs: 2 ** 31 }],
    ['cancelCheckIntervalMs beyond a timer’s range', { cancelCheckIntervalMs: 2 ** 31 }],
    ['leaseTtlMs Infinity', { leaseTtlMs: Infinity }],
    ['concurrency 1.5', { concurrency: 1.5 }],
    ['an agent without a runner', { agents: { reader: {} } }],
    ['an agent whose runner cannot resume', { agents: { reader: { runner: { complete: () => undefined } } } }],
    ['an agent name with a NUL', { agents: { 'read\u0000er': countingAgent({ resumes: 0, toolCalls: 0 }) } }],
    ['agents that are not a record', { agents: [countingAgent({ resumes: 0, toolCalls: 0 })] }],
  ])('startWorker refuses %s (invalid_queue_options), starting nothing', async (_what, options) => {
    const f = await sharedFixture();
    expect(() =>
      startWorker({
        queue: f.queue,
        agents: { reader: countingAgent({ resumes: 0, toolCalls: 0 }) },
        ...(options as object),
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_queue_options' }));
  });

  it.each([
    ['agents holding a name that is not a string', { agents: ['reader', 5] }],
    ['agents that are not an array', { agents: 'reader' }],
    ['maxAttempts beyond an int', { maxAttempts: 2 ** 31 }],
    ['expireAfterSeconds Infinity', { expireAfterSeconds: Infinity }],
  ])('RunQueue.open refuses %s (invalid_queue_options)', async (_what, options) => {
    const f = await sharedFixture();
    await expect(
      RunQueue.open({ store: f.store, connectionString: f.url, schema: f.queueSchema, ...(options as object) }),
    ).rejects.toMatchObject({ code: 'invalid_queue_options' });
  });
});

let shared: QueueFixture | undefined;
async function sharedFixture(): Promise<QueueFixture> {
  shared ??= await fixture();
  return shared;
}
