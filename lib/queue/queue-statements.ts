/** SQL of the queue beyond pg-boss's own API, for one schema (a validated identifier). @internal */
export interface QueueStatements {
  /** Creates the table of cancellation requests when missing. */
  readonly createCancellations: string;
  /** (run_id): records a cancellation request; a second one is a no-op. */
  readonly requestCancellation: string;
  /** (run_id): removes a cancellation request (the probe `open` writes). */
  readonly forgetCancellation: string;
  /** (run_ids text[]): the runs among them whose cancellation was requested. */
  readonly cancelledAmong: string;
  /** (queue name, run_id): ids of the run's jobs not yet taken by a worker. */
  readonly waitingJobsOfRun: string;
  /**
   * (queue name, job ids uuid[]): the worker's heartbeat on the jobs it executes: moves their start to now,
   * so that pg-boss expires a job `expireAfterSeconds` after its worker's last heartbeat, not after its start.
   */
  readonly touchJobs: string;
  /**
   * (queue name, job id, dead-letter queue name): leaves an active job no retry, with the queue's dead
   * letter, so that failing it next moves it to the dead letters at once (a row written by hand may lack both).
   */
  readonly exhaustJob: string;
  /** (dead-letter queue name): the dead letters not yet retried or dismissed, oldest first. */
  readonly deadLetters: string;
  /** (dead-letter queue name, run_id): ids of the run's dead letters still waiting. */
  readonly deadLettersOfRun: string;
}

/** The statements for the queue's schema. @internal */
export function queueStatements(schema: string): QueueStatements {
  const quoted = `"${schema}"`;
  const cancellations = `${quoted}.wuwe_queue_cancellations`;
  return {
    createCancellations: `CREATE TABLE IF NOT EXISTS ${cancellations} (run_id TEXT PRIMARY KEY, requested_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    requestCancellation: `INSERT INTO ${cancellations} (run_id) VALUES ($1) ON CONFLICT (run_id) DO NOTHING`,
    forgetCancellation: `DELETE FROM ${cancellations} WHERE run_id = $1`,
    cancelledAmong: `SELECT run_id FROM ${cancellations} WHERE run_id = ANY($1::text[])`,
    waitingJobsOfRun: `SELECT id FROM ${quoted}.job WHERE name = $1 AND data->>'runId' = $2 AND state < 'active'`,
    touchJobs: `UPDATE ${quoted}.job SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
    exhaustJob: `UPDATE ${quoted}.job SET retry_limit = retry_count, dead_letter = $3 WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
    deadLetters: `SELECT id, data, output, created_on FROM ${quoted}.job WHERE name = $1 AND state = 'created' ORDER BY created_on, id`,
    deadLettersOfRun: `SELECT id FROM ${quoted}.job WHERE name = $1 AND data->>'runId' = $2 AND state = 'created'`,
  };
}
