import { defaultWorkerId } from '../runner/runner-rules';
import { messageOf } from '../errors/message-of';
import { parseRunJobData, checkWorkerAgents } from './job-provenance';
import type { QueueAgent } from './queue-agent';
import { executeRunJob, RunJobResult, TakenRunJob } from './run-job';
import { RunQueue } from './run-queue';
import { integerAtLeast, MAX_TIMER_MS } from './run-queue-options';
import { RunQueueError } from './run-queue-error';

/** Options of {@link startWorker}. */
export interface QueueWorkerOptions {
  readonly queue: RunQueue;
  /** The agents this worker can execute, by the name runs were enqueued with. */
  readonly agents: Readonly<Record<string, QueueAgent>>;
  /** Runs executed at once by this worker. @default 4 */
  readonly concurrency?: number;
  /** How long an idle worker waits before asking for jobs again. @default 250 */
  readonly pollIntervalMs?: number;
  /**
   * How often the worker beats for the jobs it executes and checks whether their runs were asked to cancel. Keep it
   * well below the queue's `expireAfterSeconds`. @default 1000
   */
  readonly cancelCheckIntervalMs?: number;
  /**
   * The lease of each run it executes (`leaseTtlMs` of the run): how long after a crash its run stays fenced off from
   * other workers. @default 60000
   */
  readonly leaseTtlMs?: number;
  /** This worker's id on the leases it takes. @default host name, process id and a random suffix */
  readonly workerId?: string;
  /** Hears failures of the worker itself (the queue unreachable) and of jobs it fails. @default ignored */
  readonly onError?: (error: unknown, runId?: string) => void;
}

/** What {@link QueueWorker.stop} reports. */
export interface QueueWorkerStopResult {
  /** True when every run this worker executed ended before the timeout. */
  readonly drained: boolean;
  /** The runs still executing at the timeout (their jobs are taken up again after they expire). */
  readonly abandonedRunIds: readonly string[];
}

/** A started worker. */
export interface QueueWorker {
  readonly workerId: string;
  /** The runs it is executing now. */
  runningRunIds(): readonly string[];
  /**
   * Graceful shutdown: takes no more jobs and waits for the runs it executes to end (drain), at most
   * `timeoutMs`. A run still executing then is left to its lease and its job's expiry: another worker
   * resumes it after this process exits. It closes neither the queue nor its store (their opener
   * does: `queue.close()`, `store.close()`, or use `openQueueWorker`, whose `stop()` closes what it
   * opened); until then their pools keep the process alive.
   * @param options.timeoutMs @default unlimited
   */
  stop(options?: { readonly timeoutMs?: number }): Promise<QueueWorkerStopResult>;
}

interface Running {
  /** The run its job names (`undefined` for a job that names none: it is refused at once). */
  readonly runId: string | undefined;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * Starts a worker that takes jobs of the queue and executes their runs with the agents' runners:
 * `concurrency` runs at a time, each a `resume()` under the run's lease (see {@link RunQueue}).
 * Throws `invalid_queue_options` for a bad option (a number out of range, an agent name that is not
 * well-formed, an agent without `runner.resume`) and `unknown_agent` when `agents` is empty.
 */
export function startWorker(options: QueueWorkerOptions): QueueWorker {
  const concurrency = options.concurrency ?? 4;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const cancelCheckIntervalMs = options.cancelCheckIntervalMs ?? 1_000;
  const leaseTtlMs = options.leaseTtlMs ?? 60_000;
  integerAtLeast('concurrency', concurrency, 1, 10_000);
  integerAtLeast('pollIntervalMs', pollIntervalMs, 10, MAX_TIMER_MS);
  integerAtLeast('cancelCheckIntervalMs', cancelCheckIntervalMs, 10, MAX_TIMER_MS);
  integerAtLeast('leaseTtlMs', leaseTtlMs, 100, MAX_TIMER_MS);
  checkWorkerAgents(options.agents);
  options.queue.checkOpen();
  const queue = options.queue;
  const workerId = options.workerId ?? defaultWorkerId();
  const report = options.onError ?? (() => undefined);
  const running = new Map<string, Running>();
  let stopping = false;
  let wake: () => void = () => undefined;

  const runningRunIds = (): string[] =>
    [...running.values()].flatMap((entry) => (entry.runId === undefined ? [] : [entry.runId]));

  const cancelTimer = setInterval(() => {
    queue.touchJobs([...running.keys()]).catch((error: unknown) => report(error));
    const runIds = runningRunIds();
    queue.cancellationsAmong(runIds).then(
      (cancelled) =>
        running.forEach(
          (entry) =>
            entry.runId !== undefined &&
            cancelled.has(entry.runId) &&
            entry.controller.abort(
              new RunQueueError('run_cancelled', `run '${entry.runId}' was cancelled`, { runId: entry.runId }),
            ),
        ),
      (error: unknown) => report(error),
    );
  }, cancelCheckIntervalMs);
  cancelTimer.unref();

  const take = (job: TakenRunJob): void => {
    const controller = new AbortController();
    const context = { queue, agents: options.agents, workerId, leaseTtlMs, signal: controller.signal };
    const done = executeRunJob(context, job)
      .then((result) => settle(job, result))
      .catch((error: unknown) => report(error, job.data?.runId))
      .finally(() => {
        running.delete(job.id);
        wake();
      });
    running.set(job.id, { runId: job.data?.runId, controller, done });
  };

  const settle = async (job: TakenRunJob, result: RunJobResult): Promise<void> => {
    if (result.kind === 'complete') {
      await queue.jobs.complete(job.id, result.output);
      return;
    }
    report(result.error, job.data?.runId);
    const output = { message: messageOf(result.error), ...codeOf(result.error) };
    if (result.kind === 'dead_letter') await queue.deadLetterNow(job.id, output);
    else await queue.jobs.fail(job.id, output);
  };

  const loop = async (): Promise<void> => {
    while (!stopping) {
      const free = concurrency - running.size;
      if (free > 0) {
        try {
          const jobs = await queue.jobs.fetch(free);
          for (const job of jobs)
            take({
              id: job.id,
              data: parseRunJobData(job.data),
              retryCount: job.retryCount,
              retryLimit: job.retryLimit,
            });
          if (jobs.length === free) continue;
        } catch (error) {
          report(error);
        }
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => undefined;
    }
  };
  const looping = loop();

  return {
    workerId,
    runningRunIds,
    async stop(stopOptions = {}) {
      stopping = true;
      wake();
      await looping;
      clearInterval(cancelTimer);
      const drained = Promise.all([...running.values()].map((entry) => entry.done)).then(() => true);
      const timeoutMs = stopOptions.timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const timedOut =
        timeoutMs === undefined
          ? new Promise<boolean>(() => undefined)
          : new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const result = await Promise.race([drained, timedOut]);
      if (timer !== undefined) clearTimeout(timer);
      return { drained: result, abandonedRunIds: result ? [] : runningRunIds() };
    },
  };
}

function codeOf(error: unknown): { code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { code } : {};
}
