/**
 * Durable runs beside LangGraph.js (`npm run bench -- durable-peers`): a two-step run with one call of the
 * weather tool, as wuwe's `runner.complete(prompt, { store })` and as a LangGraph StateGraph (agent -> tools ->
 * agent) with its checkpointer, in this process, on the same database: one SQLite file (WAL) that both open,
 * then one PostgreSQL server (WUWE_TEST_POSTGRES_URL, else a throwaway server started as
 * spec/support/throwaway-postgres.ts does, else `skipped`). LangGraph runs with its default durability
 * (`async`) and with `sync`.
 *
 * Per store it prints wall time per run (the rounds of all cases interleaved, see `measureTogether`), write
 * commits per run and per tool call, and bytes written per run; then the lines
 * - `target 1 (<store>): wuwe / LangGraph ...: met / NOT MET`: wuwe at most 0.5x LangGraph's time per run
 *   (default durability), on the ratio of the fastest rounds;
 * - `target 2 (<store>): commits per durable tool call ...: met / NOT MET`: at most 2.
 *
 * Commits: on SQLite, each transaction that wrote and each write outside one, counted on better-sqlite3's
 * statements (`sqlite-commit-counter.ts`); on PostgreSQL, transaction ids assigned (one per transaction that
 * writes; `xact_commit` of pg_stat_database is not used: a connection reports it late, up to ten seconds idle).
 * Per tool call (the table): the
 * commits of the run minus those of the same run whose model answers at once; target 2 takes off the assistant
 * message that asks for the call, which the run without the call does not have. Bytes: SQLite, the growth of the
 * file (after a TRUNCATE checkpoint of the WAL); PostgreSQL, of pg_total_relation_size of each side's tables.
 * `--full` runs more rounds and runs per round.
 */
import 'reflect-metadata';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresRunStore } from '../lib/durable/postgres';
import { SqliteRunStore } from '../lib/durable/sqlite';
import {
  findPostgresBinaries,
  startThrowawayPostgres,
  stopThrowawayPostgres,
  type ThrowawayPostgres,
} from '../spec/support/throwaway-postgres';
import { langGraphRun, wuweRun } from './durable-peers';
import { Measurement, measureTogether, ratioOfFastestRounds } from './measure';
import { SqliteCommitCounter } from './sqlite-commit-counter';

const full = process.argv.includes('--full');
const iterations = full ? 100 : 8;
const rounds = full ? 9 : 5;
/** Runs per side counted for commits and bytes. */
const countedRuns = full ? 200 : 20;

/** What one side costs per run besides time. */
interface SideCosts {
  readonly name: string;
  readonly commitsPerRun: number;
  readonly commitsPerToolCall: number;
  readonly bytesPerRun: number;
  /** This process's CPU time per run (the database server's, for PostgreSQL, not included). */
  readonly cpuMsPerRun: number;
}

type Run = () => Promise<unknown>;

async function repeat(run: Run, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await run();
}

function printTimes(store: string, measurements: readonly Measurement[]): void {
  const wuwe = measurements[0];
  console.table(
    measurements.map((m) => ({
      case: `${m.name} (${store})`,
      'ms/run (wall)': (m.nsPerOp / 1e6).toFixed(3),
      'fastest rounds to wuwe': ratioOfFastestRounds(m, wuwe).toFixed(2) + 'x',
    })),
  );
}

function printCosts(costs: readonly SideCosts[]): void {
  console.table(
    costs.map((c) => ({
      case: c.name,
      'write commits/run': c.commitsPerRun.toFixed(2),
      'write commits/tool call': c.commitsPerToolCall.toFixed(2),
      'bytes written/run': Math.round(c.bytesPerRun),
      'ms CPU/run (this process)': c.cpuMsPerRun.toFixed(2),
    })),
  );
}

/** The target lines of one store: time against LangGraph (default durability), and wuwe's commits per call. */
function printTargets(store: string, times: readonly Measurement[], wuweCallCommits: number): void {
  const [wuwe, langGraph] = times;
  const ratio = ratioOfFastestRounds(wuwe, langGraph);
  console.log(
    `target 1 (${store}): wuwe / ${langGraph.name} per durable run = ${ratio.toFixed(2)}x, fastest rounds ` +
      `(${(wuwe.nsPerOp / langGraph.nsPerOp).toFixed(2)}x of medians; at most 0.5x): ${ratio <= 0.5 ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `target 2 (${store}): write commits per durable tool call = ${wuweCallCommits.toFixed(2)} (at most 2): ` +
      (wuweCallCommits <= 2 ? 'met' : 'NOT MET'),
  );
}

/**
 * Commits a durable tool call adds on wuwe's side, the same on both stores: those of the run with the call less
 * those of the run whose model answers at once, less the assistant message that asks for the call. What is left is
 * the call's start and its admission; its Tool message and audit go with the model's next response.
 */
function wuweToolCallCommits(costs: SideCosts): number {
  return costs.commitsPerToolCall - 1;
}

/** Milliseconds of this process's CPU time since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

function sqliteFileBytes(path: string): number {
  return [path, `${path}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
}

async function sqliteSide(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'wuwe-durable-peers-'));
  const file = join(directory, 'runs.db');
  const counter = new SqliteCommitCounter(Database);
  const store = new SqliteRunStore(file);
  const saver = SqliteSaver.fromConnString(file);
  const checkpointer = new Database(file);
  try {
    const cases: Array<[string, Run]> = [
      ['wuwe runner.complete + SqliteRunStore', wuweRun(store)],
      ['LangGraph + SqliteSaver (durability async)', langGraphRun(saver, 'async')],
      ['LangGraph + SqliteSaver (durability sync)', langGraphRun(saver, 'sync')],
    ];
    const toolless: Run[] = [
      wuweRun(store, false),
      langGraphRun(saver, 'async', false),
      langGraphRun(saver, 'sync', false),
    ];
    const costs: SideCosts[] = [];
    for (const [index, [name, run]] of cases.entries()) {
      await repeat(run, 3);
      await repeat(toolless[index], 3);
      checkpointer.pragma('wal_checkpoint(TRUNCATE)');
      const before = sqliteFileBytes(file);
      counter.reset();
      const cpu = process.cpuUsage();
      await repeat(run, countedRuns);
      const cpuMsPerRun = cpuMsSince(cpu) / countedRuns;
      const counted = counter.counts();
      checkpointer.pragma('wal_checkpoint(TRUNCATE)');
      const bytes = (sqliteFileBytes(file) - before) / countedRuns;
      counter.reset();
      await repeat(toolless[index], countedRuns);
      const withoutCall = counter.counts().writeCommits;
      const perRun = counted.writeCommits / countedRuns;
      costs.push({
        name: `${name} (SQLite)`,
        commitsPerRun: perRun,
        commitsPerToolCall: perRun - withoutCall / countedRuns,
        bytesPerRun: bytes,
        cpuMsPerRun,
      });
    }
    const times = await measureTogether(cases, iterations, rounds, 'wall');
    printTimes('SQLite file, WAL', times);
    printCosts(costs);
    printTargets('SQLite', times, wuweToolCallCommits(costs[0]));
  } finally {
    checkpointer.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function startPostgres(): Promise<{ url: string; server?: ThrowawayPostgres } | string> {
  if (process.env.WUWE_TEST_POSTGRES_URL) return { url: process.env.WUWE_TEST_POSTGRES_URL };
  const binaries = findPostgresBinaries();
  if (binaries === undefined) return 'no PostgreSQL server binaries here and WUWE_TEST_POSTGRES_URL is not set';
  try {
    const server = await startThrowawayPostgres(binaries);
    return { url: server.url, server };
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

/**
 * Write transactions of the server so far: the next transaction id (one is assigned to each transaction that
 * writes, none to a read; reading it assigns none). The bench is the server's only writer while it counts.
 */
async function postgresCommits(admin: Pool): Promise<{ writes: number }> {
  const { rows } = await admin.query<{ xmax: string }>(`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`);
  return { writes: Number(rows[0].xmax) };
}

async function postgresBytes(admin: Pool, schema: string): Promise<number> {
  const { rows } = await admin.query<{ bytes: string | null }>(
    `SELECT sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)))::text AS bytes
       FROM pg_tables WHERE schemaname = $1`,
    [schema],
  );
  return Number(rows[0].bytes ?? 0);
}

async function postgresSide(): Promise<void> {
  const started = await startPostgres();
  if (typeof started === 'string') {
    console.log(`PostgreSQL: skipped: ${started}`);
    return;
  }
  const suffix = Math.random().toString(16).slice(2, 10);
  const wuweSchema = `wuwe_peers_${suffix}`;
  const langGraphSchema = `langgraph_peers_${suffix}`;
  const admin = new Pool({ connectionString: started.url, max: 1 });
  const store = await PostgresRunStore.open({ connectionString: started.url, schema: wuweSchema, maxConnections: 4 });
  const saver = PostgresSaver.fromConnString(started.url, { schema: langGraphSchema });
  try {
    await saver.setup();
    const cases: Array<[string, Run, Run, string]> = [
      ['wuwe runner.complete + PostgresRunStore', wuweRun(store), wuweRun(store, false), wuweSchema],
      [
        'LangGraph + PostgresSaver (durability async)',
        langGraphRun(saver, 'async'),
        langGraphRun(saver, 'async', false),
        langGraphSchema,
      ],
      [
        'LangGraph + PostgresSaver (durability sync)',
        langGraphRun(saver, 'sync'),
        langGraphRun(saver, 'sync', false),
        langGraphSchema,
      ],
    ];
    const costs: SideCosts[] = [];
    for (const [name, run, toolless, schema] of cases) {
      await repeat(run, 3);
      await repeat(toolless, 3);
      const bytesBefore = await postgresBytes(admin, schema);
      const before = await postgresCommits(admin);
      const cpu = process.cpuUsage();
      await repeat(run, countedRuns);
      const cpuMsPerRun = cpuMsSince(cpu) / countedRuns;
      const after = await postgresCommits(admin);
      const bytes = (await postgresBytes(admin, schema)) - bytesBefore;
      await repeat(toolless, countedRuns);
      const afterToolless = await postgresCommits(admin);
      const perRun = (after.writes - before.writes) / countedRuns;
      costs.push({
        name: `${name} (PostgreSQL)`,
        commitsPerRun: perRun,
        commitsPerToolCall: perRun - (afterToolless.writes - after.writes) / countedRuns,
        bytesPerRun: bytes / countedRuns,
        cpuMsPerRun,
      });
    }
    const times = await measureTogether(
      cases.map(([name, run]) => [name, run] as const),
      iterations,
      rounds,
      'wall',
    );
    printTimes('PostgreSQL', times);
    printCosts(costs);
    printTargets('PostgreSQL', times, wuweToolCallCommits(costs[0]));
  } finally {
    await saver.end();
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${wuweSchema}" CASCADE`).catch(() => undefined);
    await admin.query(`DROP SCHEMA IF EXISTS "${langGraphSchema}" CASCADE`).catch(() => undefined);
    await admin.end();
    if (started.server) stopThrowawayPostgres(started.server);
  }
}

export default async function durablePeers(): Promise<void> {
  await sqliteSide();
  await postgresSide();
}
