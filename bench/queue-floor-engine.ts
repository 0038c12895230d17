/**
 * The floor of the queue-floor case of `npm run bench -- scale` (see `queue-floor.ts`): the store writes
 * of one run of the ledger agent (spec/queue/ledger-agent.ts) as a wuwe run writes them, done by hand in
 * plain SQL with `pg`, and its jobs on raw pg-boss (the version and the queue options of lib/queue). No
 * engine: no model step, no tool contract, no reads of the run, no record chain hashing, no lease
 * renewal, no heartbeat or cancellation checks.
 *
 * Its tables are a wuwe PostgreSQL store's (created by `PostgresRunStore.open` in a schema of its own, so
 * the same columns, keys and indexes take the writes). Per run it commits the write transactions a wuwe run
 * of that agent commits, statement for statement on the same tables and of similar sizes (the case prints
 * both profiles as counted by `pg-statement-counter.ts`):
 * - enqueue: the run row, its first message, two chain entries and the chain head, and the job (pg-boss's
 *   `send` on the same transaction);
 * - the lease: its row and the run's fencing token;
 * - then every write of the run as wuwe makes it: the resume's status, the assistant message of each of the
 *   three turns, for each of the three calls its start and its admitted outcome, and its projection with its
 *   tool message; the final status; each of these moves the run's `updated_at`, appends its chain entries
 *   (one, or two for a projection with its message) and moves the chain head;
 * - the two ledger rows of `charge` and `notify` (autocommit), and each tool's delay;
 * - the lease's release, then the job's completion.
 * The second turn's two calls run at once, as the runner runs them.
 */
import { createHash } from 'node:crypto';
import type PgBossModule from 'pg-boss';
import type { Pool, PoolClient } from 'pg';

/** One run's job. */
interface FloorJobData {
  readonly runId: string;
  readonly agent: string;
}

/** What a floor run writes to. */
export interface FloorTarget {
  readonly pool: Pool;
  /** The ledger's pool (as the ledger agent's tools have their own). */
  readonly ledgerPool: Pool;
  /** Schema of the store tables and of the ledger, quoted. */
  readonly quotedSchema: string;
  readonly toolDelayMs: number;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The fixed texts of the ledger agent's messages and outcomes, of the sizes wuwe stores. */
const texts = {
  assistant1: JSON.stringify({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'charge', arguments: '{"cents":500}' }],
  }),
  assistant2: JSON.stringify({
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_2', name: 'notify', arguments: '{}' },
      { id: 'call_3', name: 'lookup', arguments: '{}' },
    ],
  }),
  final: JSON.stringify({ role: 'assistant', content: 'done' }),
  tool: (callId: string, result: unknown) =>
    JSON.stringify({ role: 'tool', toolCallId: callId, content: JSON.stringify(result), isError: false }),
  report: (callId: string) =>
    JSON.stringify({ callId, original: { bytes: 16, truncated: false }, projected: { bytes: 16 }, policy: 'default' }),
};

/** The chain entries of one run, numbered as they are appended (one writer per run row at a time). */
class FloorRun {
  constructor(
    readonly runId: string,
    private readonly target: FloorTarget,
    /** Chain entries the run has. */
    private length = 0,
  ) {}

  private get schema(): string {
    return this.target.quotedSchema;
  }

  /** Appends `count` chain entries and moves the head, in the caller's transaction. */
  async chain(client: PoolClient, kind: string, count: number): Promise<void> {
    let head = '';
    for (let i = 0; i < count; i++) {
      const seq = this.length++;
      head = digest(`${this.runId}:${seq}`);
      await client.query(
        `INSERT INTO ${this.schema}.wuwe_record_chain (run_id, seq, kind, subject, entity_sha256, source, key_id, digest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [this.runId, seq, kind, `${kind}:${this.runId}`, digest(kind), 'write', null, head],
      );
    }
    await client.query(`UPDATE ${this.schema}.wuwe_runs SET chain_head = $2, chain_length = $3 WHERE run_id = $1`, [
      this.runId,
      head,
      this.length,
    ]);
  }

  /** One write transaction: `body`, then the run's `updated_at`, `entries` chain entries and the head. */
  async write(kind: string, entries: number, body: (client: PoolClient) => Promise<void>): Promise<void> {
    await inTransaction(this.target.pool, async (client) => {
      await body(client);
      await client.query(
        `UPDATE ${this.schema}.wuwe_runs SET updated_at = $2 WHERE run_id = $1 RETURNING fencing_token`,
        [this.runId, new Date().toISOString()],
      );
      await this.chain(client, kind, entries);
    });
  }

  async message(client: PoolClient, seq: number, text: string): Promise<void> {
    await client.query(`INSERT INTO ${this.schema}.wuwe_messages (run_id, seq, message_json) VALUES ($1, $2, $3)`, [
      this.runId,
      seq,
      text,
    ]);
  }

  /** One tool call: its start, its effect (a ledger row unless `lookup`) and delay, its admitted outcome. */
  async call(turn: number, callId: string, tool: string, args: string, result: unknown): Promise<void> {
    const now = new Date().toISOString();
    await this.write('call_started', 1, (client) =>
      client
        .query(
          `INSERT INTO ${this.schema}.wuwe_tool_calls (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at, turn)
           VALUES ($1, $2, $3, $4, 1, $5, $6, 'started', NULL, $7, NULL, $8)`,
          [
            this.runId,
            callId,
            tool,
            tool === 'notify' ? `${this.runId}:${callId}` : null,
            digest(args),
            args,
            now,
            turn,
          ],
        )
        .then(() => undefined),
    );
    if (tool !== 'lookup')
      await this.target.ledgerPool.query(
        `INSERT INTO ${this.schema}.ledger (run_id, call_id, tool, pid) VALUES ($1, $2, $3, $4)`,
        [this.runId, callId, tool, process.pid],
      );
    if (this.target.toolDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.target.toolDelayMs));
    await this.write('call_admitted', 1, (client) =>
      client
        .query(
          `UPDATE ${this.schema}.wuwe_tool_calls SET status = 'admitted', outcome_json = $3, attempts = 1, admitted_at = $4 WHERE run_id = $1 AND call_id = $2 AND turn = $5`,
          [this.runId, callId, JSON.stringify({ ok: true, value: result }), new Date().toISOString(), turn],
        )
        .then(() => undefined),
    );
  }

  /** A call's projection audit and its tool message, in one write (two chain entries). */
  async toolMessage(turn: number, seq: number, callId: string, tool: string, result: unknown): Promise<void> {
    const text = texts.tool(callId, result);
    await this.write('tool_message', 2, async (client) => {
      await client.query(
        `INSERT INTO ${this.schema}.wuwe_tool_output_projections (run_id, call_id, tool_name, projected_sha256, report_json, recorded_at, turn, content_sha256, message_index)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          this.runId,
          callId,
          tool,
          digest(text),
          texts.report(callId),
          new Date().toISOString(),
          turn,
          digest(text),
          seq,
        ],
      );
      await this.message(client, seq, text);
    });
  }
}

/** Runs `body` in one transaction on one pooled connection. */
async function inTransaction(pool: Pool, body: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await body(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Creates a floor run and sends its job on the same transaction, as wuwe's atomic enqueue does. */
export async function enqueueFloorRun(
  target: FloorTarget,
  boss: PgBossModule,
  queueName: string,
  sendOptions: PgBossModule.SendOptions,
  runId: string,
  input: string,
): Promise<void> {
  const run = new FloorRun(runId, target);
  const schema = target.quotedSchema;
  await inTransaction(target.pool, async (client) => {
    const now = new Date().toISOString();
    const metadata = JSON.stringify({
      queue: { agent: 'ledger', maxSteps: null, enqueuedAt: now, queueName, queueSchema: 'floor' },
    });
    await client.query(
      `INSERT INTO ${schema}.wuwe_runs (run_id, status, metadata_json, created_at, updated_at, fencing_token, chain_head, chain_length)
       VALUES ($1, 'running', $2, $3, $3, 0, NULL, 0)`,
      [runId, metadata, now],
    );
    await run.message(client, 1, JSON.stringify({ role: 'user', content: input }));
    await run.chain(client, 'run_created', 2);
    const db = { executeSql: async (text: string, values: unknown[]) => client.query(text, values) };
    await boss.send(queueName, { runId, agent: 'ledger' } satisfies FloorJobData, { ...sendOptions, db });
  });
}

/** Executes a floor run's job: every write of a ledger run after its enqueue, in the order wuwe makes them. */
export async function executeFloorRun(target: FloorTarget, data: unknown, workerId: string): Promise<void> {
  const { runId } = data as FloorJobData;
  const schema = target.quotedSchema;
  // The chain of a run continues after the two entries of its enqueue.
  const run = new FloorRun(runId, target, 2);
  await inTransaction(target.pool, async (client) => {
    await client.query(
      `INSERT INTO ${schema}.wuwe_leases AS lease (run_id, worker_id, expires_at_ms) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, expires_at_ms = EXCLUDED.expires_at_ms`,
      [runId, workerId, Date.now() + 60_000],
    );
    await client.query(`UPDATE ${schema}.wuwe_runs SET fencing_token = fencing_token + 1 WHERE run_id = $1`, [runId]);
  });
  const status = (value: string) => (client: PoolClient) =>
    client.query(`UPDATE ${schema}.wuwe_runs SET status = $2 WHERE run_id = $1`, [runId, value]).then(() => undefined);
  await run.write('run_status', 1, status('running'));
  await run.write('message', 1, (client) => run.message(client, 2, texts.assistant1));
  const charged = { done: 'charge' };
  await run.call(1, 'call_1', 'charge', '{"cents":500}', charged);
  await run.toolMessage(1, 3, 'call_1', 'charge', charged);
  await run.write('message', 1, (client) => run.message(client, 4, texts.assistant2));
  const notified = { done: 'notify' };
  const looked = { order: 'o-1', state: 'paid' };
  await Promise.all([run.call(2, 'call_2', 'notify', '{}', notified), run.call(2, 'call_3', 'lookup', '{}', looked)]);
  await run.toolMessage(2, 5, 'call_2', 'notify', notified);
  await run.toolMessage(2, 6, 'call_3', 'lookup', looked);
  await run.write('message', 1, (client) => run.message(client, 7, texts.final));
  await run.write('run_status', 1, status('completed'));
  await target.pool.query(`DELETE FROM ${schema}.wuwe_leases WHERE run_id = $1 AND worker_id = $2`, [runId, workerId]);
}
