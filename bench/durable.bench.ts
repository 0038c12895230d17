/**
 * Durable admission throughput: one admission is `recordCallStarted` + `admitOutcome` of a small outcome,
 * each its own transaction. MemoryRunStore is the in-process baseline; SQLite uses a file in a temporary
 * directory (WAL, default synchronous); PostgreSQL runs when WUWE_TEST_POSTGRES_URL is set.
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
import { Measurement, measure } from './measure';

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

export default async function (): Promise<void> {
  const memory = new MemoryRunStore();
  const baseline = await admissions('MemoryRunStore (baseline)', memory, 5_000, 5);
  await memory.close();

  const results: Measurement[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wuwe-bench-'));
  try {
    const sqlite = new SqliteRunStore(join(dir, 'runs.db'));
    results.push(await admissions('SqliteRunStore (file, WAL)', sqlite, 500, 5));
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const url = process.env.WUWE_TEST_POSTGRES_URL;
  if (url) {
    const schema = `wuwe_bench_${randomBytes(4).toString('hex')}`;
    const postgres = await PostgresRunStore.open({ connectionString: url, schema, maxConnections: 2 });
    try {
      results.push(await admissions('PostgresRunStore (one client)', postgres, 200, 3));
    } finally {
      await postgres.close();
      const admin = new Pool({ connectionString: url, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  } else {
    console.log('PostgresRunStore: skipped (set WUWE_TEST_POSTGRES_URL, e.g. via .ci/postgres.sh)');
  }
  print(baseline, results);
}
