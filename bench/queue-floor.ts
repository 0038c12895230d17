/**
 * The queue floor of `npm run bench -- scale`: runs/s of one worker next to the engine's floor, without
 * chaos or kills. wuwe: runs of the ledger agent (spec/queue/ledger-agent.ts) enqueued on a `RunQueue`
 * and executed by one `startWorker` with the scale bench's concurrency, opened as the chaos rounds' worker
 * process opens them (its own store and queue, the same options) but in this process. Floor: the same
 * number of raw pg-boss jobs (the same pg-boss, the same queue options, the same fetch loop) whose handler
 * commits the store writes a wuwe run of that agent commits, as plain SQL (see `queue-floor-engine.ts`).
 *
 * First one run of each is counted (`pg-statement-counter.ts`: write transactions, write statements,
 * rows and bytes written, and the reads on the store's schema, the bench's own polls left out) and both
 * profiles printed: the floor's writes must match wuwe's (a wuwe run may also renew its lease, which the
 * floor does not). Then, after a warm-up, rounds of `runs` runs each alternate between the two (the order
 * swapped every round), each timed from its first enqueue (16 at a time, as the chaos rounds enqueue) to
 * its last run's completion, in wall time (the database server's work is part of a run's cost) and in
 * this process's CPU time. Per-run cost: the round's time / its runs. The ratio: wuwe's per-run wall
 * time / the floor's in the same round, the median over the rounds. Target: at most 1.5x.
 */
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { PostgresRunStore } from '../lib/durable/postgres';
import { RunQueue, startWorker } from '../lib/queue';
import { createLedger, ledgerAgent } from '../spec/queue/ledger-agent';
import { freshSchemas, FreshSchemas, openQueueFixture, testPostgresUrl } from '../spec/queue/queue-fixture';
import { describeTransactions, PgStatementCounter, PgStatementCounts, UNCOUNTED } from './pg-statement-counter';
import { enqueueFloorRun, executeFloorRun, FloorTarget } from './queue-floor-engine';

/** Options of {@link queueFloor}. */
export interface QueueFloorOptions {
  /** Runs per timed round. */
  readonly runs: number;
  /** Timed rounds of each side. */
  readonly rounds: number;
  /** Runs executed at once by the worker. */
  readonly concurrency: number;
  /** Each tool call takes this long (simulated work), on both sides. */
  readonly toolDelayMs: number;
  readonly log: (line: string) => void;
}

/** The highest ratio of wuwe's per-run cost to the floor's the target allows. */
const MAX_RATIO = 1.5;

/** The worker's and the queue's options, as spec/queue/queue-worker-process.ts and the chaos rounds set them. */
const WORKER = { pollIntervalMs: 100, cancelCheckIntervalMs: 200, leaseTtlMs: 2000 } as const;
const QUEUE = { maxAttempts: 20, expireAfterSeconds: 4, retryDelaySeconds: 0, superviseIntervalSeconds: 1 } as const;
const QUEUE_NAME = 'wuwe-runs';

/** One side of the comparison. */
interface Side {
  readonly name: string;
  readonly storeSchema: string;
  enqueue(input: string): Promise<void>;
  /** Runs completed so far. */
  completed(): Promise<number>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function completedIn(pool: Pool, quotedSchema: string): Promise<number> {
  const rows = await pool.query<{ count: string }>(
    `${UNCOUNTED} SELECT count(*) AS count FROM ${quotedSchema}.wuwe_runs WHERE status = 'completed'`,
  );
  return Number(rows.rows[0].count);
}

async function openWuwe(schemas: FreshSchemas, concurrency: number, log: (line: string) => void): Promise<Side> {
  const fixture = await openQueueFixture(schemas, { maxAttempts: QUEUE.maxAttempts });
  const url = fixture.url;
  const ledgerPool = new Pool({ connectionString: url, max: 4 });
  const store = await PostgresRunStore.open({
    connectionString: url,
    schema: fixture.storeSchema,
    maxConnections: concurrency + 2,
  });
  const queue = await RunQueue.open({
    store,
    connectionString: url,
    schema: fixture.queueSchema,
    ...QUEUE,
    maxConnections: 4,
  });
  const worker = startWorker({
    queue,
    agents: { ledger: ledgerAgent(ledgerPool, fixture.storeSchema) },
    concurrency,
    ...WORKER,
    onError: (error, runId) => log(`wuwe worker error${runId ? ` (${runId})` : ''}: ${String(error)}`),
  });
  const quoted = `"${fixture.storeSchema}"`;
  return {
    name: 'wuwe',
    storeSchema: fixture.storeSchema,
    enqueue: async (input) => void (await fixture.queue.enqueue({ agent: 'ledger', input })),
    completed: () => completedIn(fixture.pool, quoted),
    async close() {
      await worker.stop({ timeoutMs: 30_000 });
      await queue.close();
      await store.close();
      await ledgerPool.end();
      await fixture.close();
    },
  };
}

/** A pg-boss instance with the options and queues `QueueJobs.open` (lib/queue) gives its own. */
async function openBoss(url: string, schema: string): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema,
    max: 4,
    supervise: true,
    maintenanceIntervalSeconds: QUEUE.superviseIntervalSeconds,
    schedule: false,
    migrate: true,
  });
  boss.on('error', () => undefined);
  await boss.start();
  const deadLetter = `${QUEUE_NAME}-dead`;
  await boss.createQueue(deadLetter, { name: deadLetter, policy: 'standard' });
  await boss.createQueue(QUEUE_NAME, {
    name: QUEUE_NAME,
    policy: 'standard',
    retryLimit: QUEUE.maxAttempts - 1,
    retryDelay: QUEUE.retryDelaySeconds,
    expireInSeconds: QUEUE.expireAfterSeconds,
    deadLetter,
  });
  return boss;
}

async function openFloor(
  schemas: FreshSchemas,
  concurrency: number,
  toolDelayMs: number,
  log: (line: string) => void,
): Promise<Side> {
  const url = testPostgresUrl();
  const storeSchema = schemas.fresh();
  const queueSchema = schemas.fresh();
  const quoted = `"${storeSchema}"`;
  // The floor writes to a wuwe store's tables: the same columns, keys and indexes.
  await (await PostgresRunStore.open({ connectionString: url, schema: storeSchema })).close();
  const pool = new Pool({ connectionString: url, max: 10 });
  await createLedger(pool, storeSchema);
  const boss = await openBoss(url, queueSchema);
  const sendOptions = {
    retryLimit: QUEUE.maxAttempts - 1,
    retryDelay: QUEUE.retryDelaySeconds,
    expireInSeconds: QUEUE.expireAfterSeconds,
    deadLetter: `${QUEUE_NAME}-dead`,
  };
  const enqueueTarget: FloorTarget = { pool, ledgerPool: pool, quotedSchema: quoted, toolDelayMs };
  // The worker's own connections, as the wuwe worker has its own store, queue and ledger pools.
  const workerPool = new Pool({ connectionString: url, max: concurrency + 2 });
  const ledgerPool = new Pool({ connectionString: url, max: 4 });
  const workerBoss = await openBoss(url, queueSchema);
  const target: FloorTarget = { pool: workerPool, ledgerPool, quotedSchema: quoted, toolDelayMs };
  const workerId = `floor:${process.pid}:${randomUUID()}`;
  // The fetch loop of lib/queue's worker: take as many jobs as slots are free, poll when none is due.
  const running = new Set<Promise<void>>();
  let stopping = false;
  let wake: () => void = () => undefined;
  const take = (job: PgBoss.JobWithMetadata<unknown>): void => {
    const done: Promise<void> = executeFloorRun(target, job.data, workerId)
      .then(
        () => workerBoss.complete(QUEUE_NAME, job.id, { runId: (job.data as { runId: string }).runId, steps: 3 }),
        (error: unknown) => workerBoss.fail(QUEUE_NAME, job.id, { message: String(error) }),
      )
      .catch((error: unknown) => log(`floor worker error: ${String(error)}`))
      .finally(() => {
        running.delete(done);
        wake();
      });
    running.add(done);
  };
  const looping = (async () => {
    while (!stopping) {
      const free = concurrency - running.size;
      if (free > 0) {
        try {
          const jobs = await workerBoss.fetch<unknown>(QUEUE_NAME, { batchSize: free, includeMetadata: true });
          for (const job of jobs) take(job);
          if (jobs.length === free) continue;
        } catch (error) {
          log(`floor worker error: ${String(error)}`);
        }
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WORKER.pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => undefined;
    }
  })();
  return {
    name: 'floor',
    storeSchema,
    enqueue: (input) => enqueueFloorRun(enqueueTarget, boss, QUEUE_NAME, sendOptions, randomUUID(), input),
    completed: () => completedIn(pool, quoted),
    async close() {
      stopping = true;
      wake();
      await looping;
      await Promise.all(running);
      for (const stopped of [workerBoss, boss]) await stopped.stop({ graceful: false, wait: true, close: true });
      await Promise.all([pool.end(), workerPool.end(), ledgerPool.end()]);
    },
  };
}

/** Enqueues `runs` runs on `side` (16 at a time) and waits for their completion; returns wall and CPU ms. */
async function timedRound(side: Side, runs: number): Promise<{ wallMs: number; cpuMs: number }> {
  const before = await side.completed();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let offset = 0; offset < runs; offset += 16)
    await Promise.all(
      Array.from({ length: Math.min(16, runs - offset) }, (_, index) => side.enqueue(`charge order ${offset + index}`)),
    );
  const deadline = Date.now() + 10 * 60_000;
  while ((await side.completed()) - before < runs) {
    if (Date.now() > deadline) throw new Error(`${side.name}: ${runs} runs did not complete in 10 minutes`);
    await sleep(20);
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const spent = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (spent.user + spent.system) / 1000 };
}

/** Counts what one run of `side` writes and reads on its store's schema. */
async function profile(side: Side): Promise<PgStatementCounts> {
  const counter = new PgStatementCounter(side.storeSchema);
  counter.start();
  try {
    await timedRound(side, 1);
    await sleep(500); // the lease's release comes after the status the round waits for
    return counter.stop();
  } catch (error) {
    counter.stop();
    throw error;
  }
}

function profileLine(name: string, counts: PgStatementCounts): string {
  return (
    `${name}: ${counts.writeTransactions.length} write transactions, ${counts.writeStatements} write statements, ` +
    `${counts.rowsWritten} rows, ${(counts.bytesWritten / 1024).toFixed(1)} KiB of parameters; ` +
    `${counts.readStatements} reads, ${counts.readTransactions} read-only transactions; ${counts.statements} statements sent in all`
  );
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the queue-floor case and prints its target line; returns whether the target was met. */
export async function queueFloor(options: QueueFloorOptions): Promise<boolean> {
  const { runs, rounds, concurrency, log } = options;
  const schemas = freshSchemas();
  const sides: Side[] = [];
  try {
    sides.push(await openWuwe(schemas, concurrency, log));
    sides.push(await openFloor(schemas, concurrency, options.toolDelayMs, log));
    const [wuwe, floor] = sides;
    const wuweProfile = await profile(wuwe);
    const floorProfile = await profile(floor);
    log(profileLine('one wuwe run', wuweProfile));
    log(profileLine('one floor run', floorProfile));
    log(`wuwe's write transactions: ${describeTransactions(wuweProfile).join('; ')}`);
    for (const side of sides) await timedRound(side, Math.min(runs, 2 * concurrency));
    const results = sides.map((): { wallMs: number; cpuMs: number }[] => []);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) results[index].push(await timedRound(sides[index], runs));
    }
    const perRun = (side: number, key: 'wallMs' | 'cpuMs') => results[side].map((result) => result[key] / runs);
    const ratios = perRun(0, 'wallMs').map((ms, round) => ms / perRun(1, 'wallMs')[round]);
    const cpuRatios = perRun(0, 'cpuMs').map((ms, round) => ms / perRun(1, 'cpuMs')[round]);
    console.table(
      ratios.map((ratio, round) => ({
        round: round + 1,
        'wuwe ms/run': perRun(0, 'wallMs')[round].toFixed(2),
        'floor ms/run': perRun(1, 'wallMs')[round].toFixed(2),
        ratio: `${ratio.toFixed(2)}x`,
        'wuwe CPU ms/run': perRun(0, 'cpuMs')[round].toFixed(2),
        'floor CPU ms/run': perRun(1, 'cpuMs')[round].toFixed(2),
        'CPU ratio': `${cpuRatios[round].toFixed(2)}x`,
      })),
    );
    const wuweMs = median(perRun(0, 'wallMs'));
    const floorMs = median(perRun(1, 'wallMs'));
    const ratio = median(ratios);
    const met = ratio <= MAX_RATIO;
    console.log(
      `target queue floor: wuwe per-run cost at most ${MAX_RATIO}x the floor's (one worker, concurrency ${concurrency}, ` +
        `${runs} runs x ${rounds} rounds): wuwe ${wuweMs.toFixed(2)} ms/run (${(1000 / wuweMs).toFixed(1)} runs/s), ` +
        `floor ${floorMs.toFixed(2)} ms/run (${(1000 / floorMs).toFixed(1)} runs/s), ratio ${ratio.toFixed(2)}x ` +
        `(rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x; CPU of this process ${median(cpuRatios).toFixed(2)}x): ` +
        (met ? 'met' : 'NOT MET'),
    );
    return met;
  } finally {
    for (const side of sides)
      await side.close().catch((error: unknown) => log(`closing ${side.name}: ${String(error)}`));
    await schemas.dropAll().catch(() => undefined);
  }
}
