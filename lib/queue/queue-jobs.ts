import { loadPgBoss, PgBoss } from './load-pg-boss';
import type { PostgresSqlExecutor } from '../durable/postgres/postgres-run-store-options';
import { RunQueueError } from './run-queue-error';
import { ResolvedRunQueueOptions } from './run-queue-options';
import type { RunJobData } from './run-queue-types';
import type { JsonObject } from '../outcome/json-value';

/** A job as the queue handed it to a worker: its id, its data as stored, and its retry counts. @internal */
export interface FetchedJob {
  readonly id: string;
  readonly data: unknown;
  readonly retryCount: number;
  readonly retryLimit: number;
}

/** When and how often a job is tried (see {@link QueueJobs.send}). @internal */
export interface JobSendOptions {
  readonly priority?: number;
  readonly startAfter?: Date;
  readonly retryLimit?: number;
}

/**
 * The jobs of one run queue, on pg-boss: the one place that talks to pg-boss, so none of its types reaches the
 * queue's public surface. @internal
 */
export class QueueJobs {
  private constructor(
    private readonly boss: PgBoss,
    private readonly options: ResolvedRunQueueOptions,
    /** The dead-letter queue's name: the queue's name with `-dead`. */
    readonly deadLetterName: string,
  ) {}

  /**
   * Connects pg-boss, creates or migrates its tables and the queue and its dead letters, and starts looking for
   * abandoned jobs every `superviseIntervalSeconds`.
   * @throws MissingDependencyError when `pg-boss` is not installed.
   */
  static async open(options: ResolvedRunQueueOptions): Promise<QueueJobs> {
    const PgBossClass = loadPgBoss('RunQueue');
    const boss = new PgBossClass({
      connectionString: options.connectionString,
      schema: options.schema,
      max: options.maxConnections,
      supervise: true,
      maintenanceIntervalSeconds: options.superviseIntervalSeconds,
      schedule: false,
      migrate: true,
    });
    // pg-boss reports background failures (a lost connection) as 'error' events; unheard, they would end the process.
    boss.on('error', options.onError ?? (() => undefined));
    await boss.start();
    const jobs = new QueueJobs(boss, options, `${options.name}-dead`);
    try {
      await boss.createQueue(jobs.deadLetterName, { name: jobs.deadLetterName, policy: 'standard' });
      await boss.createQueue(options.name, {
        name: options.name,
        policy: 'standard',
        retryLimit: options.maxAttempts - 1,
        retryDelay: options.retryDelaySeconds,
        expireInSeconds: options.expireAfterSeconds,
        deadLetter: jobs.deadLetterName,
      });
    } catch (error) {
      await jobs.stop();
      throw error;
    }
    return jobs;
  }

  /**
   * Sends a job for a run, optionally not before `startAfter`, with `retryLimit` retries (default
   * `maxAttempts - 1`), on `db` when given (a transaction of the store). Throws `enqueue_failed` when it is refused.
   */
  async send(data: RunJobData, options: JobSendOptions = {}, db?: PostgresSqlExecutor): Promise<void> {
    const id = await this.boss.send(
      this.options.name,
      { ...data },
      {
        ...(db === undefined ? {} : { db }),
        retryLimit: options.retryLimit ?? this.options.maxAttempts - 1,
        retryDelay: this.options.retryDelaySeconds,
        expireInSeconds: this.options.expireAfterSeconds,
        deadLetter: this.deadLetterName,
        ...(options.priority === undefined ? {} : { priority: options.priority }),
        ...(options.startAfter === undefined ? {} : { startAfter: options.startAfter }),
      },
    );
    if (id === null)
      throw new RunQueueError('enqueue_failed', `the job queue did not accept the job of run '${data.runId}'`, {
        runId: data.runId,
      });
  }

  /** Takes up to `batchSize` jobs that are due. */
  async fetch(batchSize: number): Promise<FetchedJob[]> {
    const jobs = await this.boss.fetch<unknown>(this.options.name, { batchSize, includeMetadata: true });
    return jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit }));
  }

  /** Completes an active job with `output`. */
  async complete(jobId: string, output: JsonObject): Promise<void> {
    await this.boss.complete(this.options.name, jobId, output);
  }

  /** Fails an active job with `output` as its last error; it is retried while retries are left. */
  async fail(jobId: string, output: JsonObject): Promise<void> {
    await this.boss.fail(this.options.name, jobId, output);
  }

  /** Cancels waiting jobs of the queue. */
  async cancel(jobIds: readonly string[]): Promise<void> {
    await this.boss.cancel(this.options.name, [...jobIds]);
  }

  /** Cancels dead letters (before their run is enqueued again). */
  async cancelDeadLetters(jobIds: readonly string[]): Promise<void> {
    await this.boss.cancel(this.deadLetterName, [...jobIds]);
  }

  /** Runs one statement on the queue's own connections. */
  async sql(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const result = await this.boss.getDb().executeSql(text, values);
    return result.rows as Record<string, unknown>[];
  }

  /** Stops the background work and closes the connections. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
