/**
 * Scale under chaos (`npm run bench -- scale`): queued runs of the ledger agent (3 model turns, 3 tool
 * calls, one of them non-idempotent) executed by 1, 2 and 4 worker processes on one PostgreSQL while a
 * killer SIGKILLs a random worker every few seconds and starts a new one. Reports final statuses,
 * duplicate side effects and lost admitted outcomes (both must be 0), throughput and p50/p99 run latency
 * (enqueue to end), and the scaling efficiency: throughput with N workers / (N x throughput with 1).
 * Needs WUWE_TEST_POSTGRES_URL (`.ci/postgres.sh npm run bench -- scale`). Sizes: SCALE_RUNS (default
 * 2000; a comma-separated list gives each round its own count), SCALE_WORKERS (default 1,2,4), SCALE_KILL_EVERY_MS
 * (default 4000, for the round with the most workers; a round
 * with fewer workers kills proportionally less often, so that each worker lives as long on average), SCALE_CONCURRENCY
 * (default 8),
 * SCALE_TOOL_DELAY_MS (default 20). SCALE_CHAOS=0 skips the chaos rounds.
 *
 * Before them, the queue floor (see `queue-floor.ts`): one worker's runs/s without chaos next to raw pg-boss
 * jobs doing the same store writes without wuwe; target: wuwe's per-run cost at most 1.5x the floor's.
 * Sizes: QUEUE_FLOOR_RUNS (default 100 runs per round), QUEUE_FLOOR_ROUNDS (default 3 of each side),
 * QUEUE_FLOOR_TOOL_DELAY_MS (default 0: the engine's cost, not the tools'); the concurrency is
 * SCALE_CONCURRENCY's. QUEUE_FLOOR=0 skips it.
 */
import { ChaosReport, runChaos } from '../spec/queue/chaos';
import { queueFloor } from './queue-floor';

export default async function scale(): Promise<void> {
  if (!process.env.WUWE_TEST_POSTGRES_URL) {
    console.log('skipped: WUWE_TEST_POSTGRES_URL is not set (run it through .ci/postgres.sh)');
    return;
  }
  const workerCounts = (process.env.SCALE_WORKERS ?? '1,2,4').split(',').map(Number);
  const runCounts = (process.env.SCALE_RUNS ?? '2000').split(',').map(Number);
  const killEveryMs = Number(process.env.SCALE_KILL_EVERY_MS ?? 4000);
  const concurrency = Number(process.env.SCALE_CONCURRENCY ?? 8);
  const toolDelayMs = Number(process.env.SCALE_TOOL_DELAY_MS ?? 20);
  if (process.env.QUEUE_FLOOR !== '0') {
    console.log(`-- queue floor: one worker, concurrency ${concurrency}, no chaos`);
    await queueFloor({
      runs: Number(process.env.QUEUE_FLOOR_RUNS ?? 100),
      rounds: Number(process.env.QUEUE_FLOOR_ROUNDS ?? 3),
      concurrency,
      toolDelayMs: Number(process.env.QUEUE_FLOOR_TOOL_DELAY_MS ?? 0),
      log: (line) => console.log(`   ${line}`),
    });
  }
  if (process.env.SCALE_CHAOS === '0') return;
  const reports: ChaosReport[] = [];
  const mostWorkers = Math.max(...workerCounts);
  for (const [round, workers] of workerCounts.entries()) {
    const runs = runCounts[Math.min(round, runCounts.length - 1)];
    // Each worker is killed as often in every round: fewer workers, rarer kills.
    const roundKillEveryMs = Math.round((killEveryMs * mostWorkers) / workers);
    console.log(
      `-- ${workers} worker(s), ${runs} runs, concurrency ${concurrency}, a SIGKILL every ${roundKillEveryMs} ms`,
    );
    const report = await runChaos({
      runs,
      workers,
      concurrency,
      killEveryMs: roundKillEveryMs,
      toolDelayMs,
      timeoutMs: 30 * 60_000,
      log: (line) => console.log(`   ${line}`),
    });
    reports.push(report);
    console.log(`   ${JSON.stringify(report)}`);
  }
  const single = reports.find((report) => report.workers === 1);
  console.table(
    reports.map((report) => ({
      workers: report.workers,
      runs: report.runs,
      kills: report.kills,
      statuses: Object.entries(report.statuses)
        .map(([status, count]) => `${status} ${count}`)
        .join(', '),
      'dead letters': report.deadLetters,
      'duplicate effects': report.duplicateSideEffects,
      'lost admitted': report.lostAdmittedOutcomes,
      outcome_unknown: report.unknownOutcomes,
      'keyed reruns': report.idempotentReruns,
      'runs/s': report.runsPerSecond.toFixed(1),
      'p50 ms': report.p50Ms,
      'p99 ms': report.p99Ms,
      efficiency:
        single === undefined
          ? '-'
          : `${((report.runsPerSecond / (report.workers * single.runsPerSecond)) * 100).toFixed(0)}%`,
    })),
  );
  const broken = reports.filter(
    (report) => !report.finished || report.duplicateSideEffects > 0 || report.lostAdmittedOutcomes > 0,
  );
  if (broken.length > 0) {
    console.log(
      `FAILED: ${broken.length} round(s) left runs unfinished, duplicated an effect or lost an admitted outcome`,
    );
    process.exitCode = 1;
  }
}
