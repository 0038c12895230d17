/**
 * Durable admission throughput: one admission is `recordCallStarted` + `admitOutcome` of a small outcome,
 * each its own transaction. MemoryRunStore is the in-process baseline; SQLite uses a file in a temporary
 * directory (WAL, default synchronous); PostgreSQL runs on WUWE_TEST_POSTGRES_URL, else on a throwaway server
 * started from the machine's PostgreSQL binaries, else is skipped with the reason.
 *
 * Then the record chain (see `durable-chain-cases.ts`): its write cost per call and per 20-call run on SQLite and
 * PostgreSQL, and the verification of a resumed 20-call run, with the `met` / `NOT MET` line of the criterion
 * "verification adds at most 10% to a resumed 20-call run". Times are this process's CPU time: a PostgreSQL
 * server's own work is not in them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { canonicalArgumentsSha256 } from '../lib/durable';
import { MemoryRunStore, RunStore, toolData } from '../lib';
import { PostgresRunStore } from '../lib/durable/postgres';
import { SqliteRunStore } from '../lib/durable/sqlite';
import { Measurement, measure, report } from './measure';
import { CALLS_PER_RUN, ChainWriteRow, chainWriteRows, verifyCost } from './durable-chain-cases';
import {
  findPostgresBinaries,
  startThrowawayPostgres,
  stopThrowawayPostgres,
  ThrowawayPostgres,
} from '../spec/support/throwaway-postgres';

const args = { orderId: 42, amountCents: 1999, note: 'refund' };
const argumentsSha256 = canonicalArgumentsSha256(args);
const outcome = toolData({ refundId: 'rf_1', status: 'settled' });

async function admissions(name: string, store: RunStore, iterations: number, rounds: number): Promise<Measurement> {
  const run = await store.createRun();
  let next = 0;
  return measure(
    name,
    async () => {
      const callId = `call-${next++}`;
      await store.recordCallStarted(run.runId, {
        callId,
        toolName: 'refund_order',
        attempts: 1,
        arguments: args,
        argumentsSha256,
      });
      await store.admitOutcome(run.runId, callId, outcome, 1);
    },
    iterations,
    rounds,
  );
}

function print(baseline: Measurement, others: readonly Measurement[]): void {
  console.table(
    [baseline, ...others].map((m) => ({
      case: m.name,
      'admissions/s': Math.round(1e9 / m.nsPerOp),
      'us/admission': (m.nsPerOp / 1000).toFixed(1),
      'ratio to memory': (m.nsPerOp / baseline.nsPerOp).toFixed(1) + 'x',
    })),
  );
}

/** A PostgreSQL URL: WUWE_TEST_POSTGRES_URL, else a throwaway server; `skipped` says why there is none. */
async function postgresServer(): Promise<{ url?: string; server?: ThrowawayPostgres; skipped?: string }> {
  const given = process.env.WUWE_TEST_POSTGRES_URL;
  if (given) return { url: given };
  const binaries = findPostgresBinaries();
  if (binaries === undefined)
    return { skipped: 'no WUWE_TEST_POSTGRES_URL and no PostgreSQL server binaries (initdb, pg_ctl) on this machine' };
  try {
    const server = await startThrowawayPostgres(binaries);
    return { url: server.url, server };
  } catch (error) {
    return { skipped: `a throwaway server could not start: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** Opens a store in a fresh schema, runs `body`, then drops the schema. */
async function inFreshSchema(url: string, body: (store: PostgresRunStore) => Promise<void>): Promise<void> {
  const schema = `wuwe_bench_${randomBytes(4).toString('hex')}`;
  const store = await PostgresRunStore.open({ connectionString: url, schema, maxConnections: 2 });
  try {
    await body(store);
  } finally {
    await store.close();
    const admin = new Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

export default async function (): Promise<void> {
  const memory = new MemoryRunStore();
  const baseline = await admissions('MemoryRunStore (baseline)', memory, 5_000, 5);
  await memory.close();

  const results: Measurement[] = [];
  const chainRows: ChainWriteRow[] = [];
  const verifyLines: string[] = [];
  const verifyMeasurements: Measurement[][] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wuwe-bench-'));
  try {
    const sqlite = new SqliteRunStore(join(dir, 'runs.db'));
    results.push(await admissions('SqliteRunStore (file, WAL)', sqlite, 500, 5));
    chainRows.push(...(await chainWriteRows('SQLite (file, WAL)', sqlite, { calls: 300, runs: 10, rounds: 5 })));
    const resumed = await verifyCost('SQLite (file, WAL)', sqlite, { iterations: 4, rounds: 7 });
    verifyLines.push(resumed.line);
    verifyMeasurements.push([resumed.plain, resumed.verified]);
    await sqlite.close();
    const keyedStore = new SqliteRunStore({
      path: join(dir, 'keyed.db'),
      recordKey: { id: 'bench', key: randomBytes(32) },
    });
    const keyed = await verifyCost('SQLite (file, WAL), recordKey', keyedStore, { iterations: 4, rounds: 7 });
    verifyLines.push(keyed.line);
    verifyMeasurements.push([keyed.plain, keyed.verified]);
    await keyedStore.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const postgres = await postgresServer();
  if (postgres.url !== undefined) {
    const url = postgres.url;
    try {
      await inFreshSchema(url, async (store) => {
        results.push(await admissions('PostgresRunStore (one client)', store, 200, 3));
      });
      await inFreshSchema(url, async (store) => {
        chainRows.push(...(await chainWriteRows('PostgreSQL', store, { calls: 100, runs: 4, rounds: 3 })));
      });
      await inFreshSchema(url, async (store) => {
        const resumed = await verifyCost('PostgreSQL', store, { iterations: 3, rounds: 5 });
        verifyLines.push(resumed.line);
        verifyMeasurements.push([resumed.plain, resumed.verified]);
      });
    } finally {
      if (postgres.server !== undefined) stopThrowawayPostgres(postgres.server);
    }
  } else {
    console.log(`PostgresRunStore: skipped (${postgres.skipped})`);
  }
  print(baseline, results);
  console.log('record chain: write cost (hashing = computing the entries inside the writes)');
  console.table(chainRows);
  console.log(
    `record chain: verification of a resumed ${CALLS_PER_RUN}-call run (each resume a fresh run crashed after its calls)`,
  );
  for (const [plain, checked] of verifyMeasurements) report(plain, [checked]);
  for (const line of verifyLines) console.log(line);
}
