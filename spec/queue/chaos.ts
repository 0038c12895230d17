/**
 * The chaos run shared by the queue's chaos spec and `npm run bench -- scale`: worker processes on one
 * PostgreSQL execute queued runs of the ledger agent while a killer SIGKILLs a random worker every few
 * seconds and starts a new one. Then every run is checked against the ledger and its durable record.
 */
import type { AgentRunRecord } from '../../lib';
import { freshSchemas, openQueueFixture } from './queue-fixture';
import { spawnWorker, WorkerProcess } from './worker-processes';

/** Options of {@link runChaos}. */
export interface ChaosOptions {
  readonly runs: number;
  readonly workers: number;
  /** Runs executed at once by each worker. */
  readonly concurrency: number;
  /** A random worker is SIGKILLed (and a new one started) this often; 0 for none. */
  readonly killEveryMs: number;
  /**
   * Also kill a random worker when this many runs have ended, once each (retried at the next check while no
   * worker is up): kills that happen however fast the machine is, where a timer may fire after the last run.
   */
  readonly killAtEnded?: readonly number[];
  /** Each tool call takes this long (simulated work). */
  readonly toolDelayMs: number;
  /** Gives up (and reports what it has) after this long. */
  readonly timeoutMs: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** What {@link runChaos} found. */
export interface ChaosReport {
  readonly runs: number;
  readonly workers: number;
  readonly kills: number;
  /** Runs by final status in the store. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly deadLetters: number;
  /** Non-idempotent calls (`charge`) whose effect is in the ledger more than once. */
  readonly duplicateSideEffects: number;
  /**
   * Admitted calls of completed runs whose outcome did not reach the conversation, or whose effect is missing from the
   * ledger.
   */
  readonly lostAdmittedOutcomes: number;
  /** Non-idempotent calls a crash left without an admitted outcome (the model got `outcome_unknown`). */
  readonly unknownOutcomes: number;
  /** Idempotent (keyed) calls executed again after a crash before their outcome was admitted. */
  readonly idempotentReruns: number;
  /** From the first enqueue to the last run's end. */
  readonly elapsedMs: number;
  /** Completed runs per second over `elapsedMs`. */
  readonly runsPerSecond: number;
  /** Run latency, enqueue to end, of completed runs. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** True when every run ended before the timeout. */
  readonly finished: boolean;
}

/** Runs the chaos scenario on fresh schemas of the test server `url`'s database, and drops them afterwards. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const schemas = freshSchemas();
  const fixture = await openQueueFixture(schemas, { maxAttempts: 20 });
  const config = fixture.workerConfig({ concurrency: options.concurrency, maxAttempts: 20 });
  const env = { TOOL_DELAY_MS: String(options.toolDelayMs) };
  const workers: WorkerProcess[] = [];
  let kills = 0;
  let killer: NodeJS.Timeout | undefined;
  try {
    for (let index = 0; index < options.workers; index++) workers.push(spawnWorker(config, env));
    await Promise.all(workers.map((worker) => worker.ready));
    log(`${options.workers} workers ready`);
    /** Kills a random worker that is up and starts a new one; false when none is up. */
    const killOne = (): boolean => {
      // Only a worker that is up is killed: one still starting counts as down already.
      const up = workers.flatMap((worker, index) => (worker.isReady() ? [index] : []));
      if (up.length === 0) return false;
      const index = up[Math.floor(Math.random() * up.length)];
      workers[index].child.kill('SIGKILL');
      void workers[index].exited.then(
        (exited) => exited.stderr !== '' && log(`killed worker's stderr: ${exited.stderr.slice(0, 2000)}`),
      );
      workers[index] = spawnWorker(config, env);
      kills++;
      return true;
    };
    const killAt = [...(options.killAtEnded ?? [])].sort((a, b) => a - b);
    if (options.killEveryMs > 0) killer = setInterval(() => void killOne(), options.killEveryMs);
    const started = Date.now();
    const prompts = Array.from({ length: options.runs }, (_, index) => `charge order ${index}`);
    for (let offset = 0; offset < prompts.length; offset += 16)
      await Promise.all(
        prompts.slice(offset, offset + 16).map((input) => fixture.queue.enqueue({ agent: 'ledger', input })),
      );
    log(`${options.runs} runs enqueued in ${Date.now() - started} ms`);
    const deadline = started + options.timeoutMs;
    let finished = false;
    let lastLog = 0;
    while (Date.now() < deadline) {
      const counts = await fixture.pool.query<{ status: string; count: string }>(
        `SELECT status, count(*) AS count FROM "${fixture.storeSchema}".wuwe_runs GROUP BY status`,
      );
      const ended = counts.rows
        .filter((row) => row.status === 'completed' || row.status === 'cancelled')
        .reduce((sum, row) => sum + Number(row.count), 0);
      const dead = (await fixture.queue.deadLetters()).length;
      if (Date.now() - lastLog > 5_000) {
        const jobs = await fixture.pool.query<{ state: string; count: string }>(
          `SELECT state, count(*) AS count FROM "${fixture.queueSchema}".job GROUP BY state ORDER BY state`,
        );
        const up = workers.filter((worker) => worker.isReady()).length;
        log(
          `${ended}/${options.runs} ended, ${dead} dead letters, ${kills} kills, ${up} workers up, jobs ${jobs.rows.map((row) => `${row.state} ${row.count}`).join(', ')}, ${Math.round((Date.now() - started) / 1000)} s`,
        );
        lastLog = Date.now();
      }
      if (ended + dead >= options.runs) {
        finished = true;
        break;
      }
      if (killAt.length > 0 && ended >= killAt[0] && killOne()) killAt.shift();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (killer !== undefined) clearInterval(killer);
    await Promise.all(
      workers.map(async (worker) => {
        worker.child.kill('SIGTERM');
        const exited = await Promise.race([
          worker.exited,
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20_000)),
        ]);
        if (exited === undefined) worker.child.kill('SIGKILL');
      }),
    );
    return {
      ...(await inspect(fixture, options.runs)),
      workers: options.workers,
      kills,
      finished,
      deadLetters: (await fixture.queue.deadLetters()).length,
    };
  } finally {
    if (killer !== undefined) clearInterval(killer);
    for (const worker of workers)
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await fixture.close().catch(() => undefined);
    await schemas.dropAll().catch(() => undefined);
  }
}

type Inspected = Omit<ChaosReport, 'workers' | 'kills' | 'finished' | 'deadLetters'>;

async function inspect(fixture: Awaited<ReturnType<typeof openQueueFixture>>, runs: number): Promise<Inspected> {
  const ledger = await fixture.ledger();
  const effects = new Map<string, number>();
  for (const row of ledger)
    effects.set(`${row.run_id} ${row.call_id}`, (effects.get(`${row.run_id} ${row.call_id}`) ?? 0) + 1);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let first = Infinity;
  let last = 0;
  let duplicateSideEffects = 0;
  let lostAdmittedOutcomes = 0;
  let unknownOutcomes = 0;
  let idempotentReruns = 0;
  for (const summary of await fixture.store.listRuns()) {
    const record = (await fixture.store.loadRun(summary.runId)) as AgentRunRecord;
    statuses[record.status] = (statuses[record.status] ?? 0) + 1;
    const createdMs = Date.parse(record.createdAt);
    first = Math.min(first, createdMs);
    if (record.status === 'completed') {
      const endedMs = Date.parse(record.updatedAt);
      last = Math.max(last, endedMs);
      latencies.push(endedMs - createdMs);
    }
    const toolMessages = new Map(
      record.messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message] as const] : [])),
    );
    for (const call of record.toolCalls) {
      const executions = effects.get(`${record.runId} ${call.callId}`) ?? 0;
      if (call.toolName === 'charge' && executions > 1) duplicateSideEffects++;
      if (call.toolName === 'notify' && executions > 1) idempotentReruns++;
      if (call.status === 'admitted') {
        const message = toolMessages.get(call.callId);
        const effectMissing = call.outcome?.ok === true && call.toolName !== 'lookup' && executions === 0;
        if (
          (record.status === 'completed' && (message === undefined || message.isError !== !call.outcome?.ok)) ||
          effectMissing
        )
          lostAdmittedOutcomes++;
      } else if (call.toolName === 'charge') unknownOutcomes++;
    }
  }
  latencies.sort((a, b) => a - b);
  const percentile = (p: number): number =>
    latencies.length === 0 ? NaN : latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const elapsedMs = last > 0 ? last - first : NaN;
  return {
    runs,
    statuses,
    duplicateSideEffects,
    lostAdmittedOutcomes,
    unknownOutcomes,
    idempotentReruns,
    elapsedMs,
    runsPerSecond: latencies.length / (elapsedMs / 1000),
    p50Ms: percentile(50),
    p99Ms: percentile(99),
  };
}
