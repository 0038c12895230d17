import type Database from 'better-sqlite3';
import { AGENT_RUN_RECORD_SCHEMA_VERSION } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';
import { checkSchemaVersion } from '../schema-version';
import { findLayoutProblem, STORE_TABLE_COLUMNS } from '../store-layout';
import { isWuweModuleTable } from './wuwe-module-tables';
import { migrationEntries } from '../chain/migration-chain';
import type { RecordChainer } from '../chain/record-chainer';
import { SqlitePreparedStatements } from './sqlite-prepared-statements';

/** The runs table of schema version 2: status `stopped`, the fencing token. */
function runsTable(name: string): string {
  return `CREATE TABLE ${name} (
  run_id TEXT PRIMARY KEY,
  status TEXT NOT NULL CHECK (status IN ('running', 'awaiting_approval', 'completed', 'stopped', 'failed', 'cancelled')),
  metadata_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  fencing_token INTEGER NOT NULL DEFAULT 0,
  chain_head TEXT,
  chain_length INTEGER NOT NULL DEFAULT 0
);`;
}

/** The approvals table of schema version 2: state `cancelled`, keyed by turn and call id. */
function approvalsTable(name: string): string {
  return `CREATE TABLE ${name} (
  run_id TEXT NOT NULL REFERENCES wuwe_runs (run_id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  arguments_sha256 TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'cancelled')),
  decided_by TEXT,
  reason TEXT,
  requested_at TEXT NOT NULL,
  decided_at TEXT,
  turn INTEGER NOT NULL CHECK (turn >= 1),
  decided_arguments_sha256 TEXT,
  PRIMARY KEY (run_id, turn, call_id)
);`;
}

/** The tool calls table of schema version 2: a call is identified by (run, turn, call id). */
function toolCallsTable(name: string): string {
  return `CREATE TABLE ${name} (
  run_id TEXT NOT NULL REFERENCES wuwe_runs (run_id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  idempotency_key TEXT UNIQUE,
  attempts INTEGER NOT NULL CHECK (attempts >= 1),
  arguments_sha256 TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('started', 'admitted')),
  outcome_json TEXT,
  started_at TEXT NOT NULL,
  admitted_at TEXT,
  turn INTEGER NOT NULL CHECK (turn >= 1),
  PRIMARY KEY (run_id, turn, call_id),
  CHECK ((status = 'admitted') = (outcome_json IS NOT NULL))
);`;
}

/** The projection audit table of schema version 2, keyed like its call. */
function projectionsTable(name: string): string {
  return `CREATE TABLE ${name} (
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  projected_sha256 TEXT NOT NULL,
  report_json TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  turn INTEGER NOT NULL CHECK (turn >= 1),
  content_sha256 TEXT,
  message_index INTEGER,
  PRIMARY KEY (run_id, turn, call_id),
  FOREIGN KEY (run_id, turn, call_id) REFERENCES wuwe_tool_calls (run_id, turn, call_id) ON DELETE CASCADE
);`;
}

/**
 * The turn of a version-1 row of `alias` (a call, projection or approval): the ordinal among its run's assistant
 * messages of the first one that carries its call id (version 1 bound a call id to its first call), else 1.
 */
function turnOfVersion1Row(alias: string): string {
  return `COALESCE((
    SELECT (SELECT COUNT(*) FROM wuwe_messages AS earlier
            WHERE earlier.run_id = m.run_id AND earlier.seq <= m.seq AND json_extract(earlier.message_json, '$.role') = 'assistant')
    FROM wuwe_messages AS m, json_each(m.message_json, '$.toolCalls') AS tc
    WHERE m.run_id = ${alias}.run_id AND json_extract(m.message_json, '$.role') = 'assistant' AND json_extract(tc.value, '$.id') = ${alias}.call_id
    ORDER BY m.seq LIMIT 1), 1)`;
}

/** The record chain table of schema version 3: one row per entry, in chain order. */
const RECORD_CHAIN_TABLE = `CREATE TABLE wuwe_record_chain (
  run_id TEXT NOT NULL REFERENCES wuwe_runs (run_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  entity_sha256 TEXT NOT NULL,
  source TEXT NOT NULL,
  key_id TEXT,
  digest TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);`;

/** Columns version 3 adds to tables of version 2 (a version-1 file's rebuilt tables already have them). */
const V3_COLUMNS: readonly (readonly [string, string, string])[] = [
  ['wuwe_runs', 'chain_head', 'TEXT'],
  ['wuwe_runs', 'chain_length', 'INTEGER NOT NULL DEFAULT 0'],
  ['wuwe_tool_output_projections', 'content_sha256', 'TEXT'],
  ['wuwe_tool_output_projections', 'message_index', 'INTEGER'],
  ['wuwe_approvals', 'decided_arguments_sha256', 'TEXT'],
];

/**
 * Schema version 2 to 3, in the caller's transaction: the chain columns and table; every decision already
 * stored is bound to the arguments hash it was checked against; every run gets the chain of its record as
 * found, marked as computed by migration.
 */
function migrateV2ToV3(db: Database.Database, chainer: RecordChainer): void {
  for (const [table, column, type] of V3_COLUMNS) {
    const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((info) => info.name);
    if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  db.exec(RECORD_CHAIN_TABLE);
  db.exec(
    "UPDATE wuwe_approvals SET decided_arguments_sha256 = arguments_sha256 WHERE state IN ('approved', 'denied') AND decided_at IS NOT NULL",
  );
  const statements = new SqlitePreparedStatements(db);
  for (const run of statements.select('listRuns')) {
    const entries = migrationEntries(chainer, {
      run,
      messages: statements.select('selectMessages', run.run_id).map((row) => row.message_json),
      calls: statements.select('selectCalls', run.run_id),
      projections: statements.select('selectProjections', run.run_id),
      approvals: statements.select('selectApprovals', run.run_id),
    });
    for (const entry of entries)
      statements.run(
        'insertChainEntry',
        run.run_id,
        entry.index,
        entry.kind,
        entry.subject,
        entry.entitySha256,
        entry.source,
        entry.keyId ?? null,
        entry.digest,
      );
    statements.run('setChainHead', run.run_id, entries[entries.length - 1]?.digest ?? null, entries.length);
  }
  db.exec('UPDATE wuwe_schema SET version = 3');
}

/** DDL of schema version 3 for SQLite. */
const SQLITE_SCHEMA = `
CREATE TABLE wuwe_schema (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
${runsTable('wuwe_runs')}
CREATE INDEX wuwe_runs_by_status ON wuwe_runs (status);
CREATE TABLE wuwe_messages (
  run_id TEXT NOT NULL REFERENCES wuwe_runs (run_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  message_json TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
${toolCallsTable('wuwe_tool_calls')}
${projectionsTable('wuwe_tool_output_projections')}
${approvalsTable('wuwe_approvals')}
CREATE TABLE wuwe_leases (
  run_id TEXT PRIMARY KEY REFERENCES wuwe_runs (run_id) ON DELETE CASCADE,
  worker_id TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);
${RECORD_CHAIN_TABLE}
`;

/** What a SQLite file holds, found by reading it: nothing of the run store yet, or a run store of a known version. */
export type SqliteFileKind = { readonly kind: 'empty' } | { readonly kind: 'wuwe'; readonly version: number };

/**
 * Identifies the file without writing to it (a read transaction only: no journal-mode switch, no header
 * change), so a foreign or damaged file is refused exactly as it was found. Tables of wuwe's own SQLite
 * modules are recognised: the run store shares a file with them in any opening order.
 *
 * Throws `store_foreign` for a database holding another application's tables, `store_corrupt` for a file
 * that is not a database or a partial or damaged wuwe layout, and `schema_version_mismatch` for a
 * version this build does not know.
 */
export function identifySqliteFile(db: Database.Database): SqliteFileKind {
  return db.transaction(() => inspect(db)).deferred();
}

/** Columns a version-1 table and its version-2 rebuild share, in order. */
const V1_CALL_COLUMNS =
  'run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at';
const V1_PROJECTION_COLUMNS = 'run_id, call_id, tool_name, projected_sha256, report_json, recorded_at';
const V1_APPROVAL_COLUMNS =
  'run_id, call_id, tool_name, arguments_sha256, state, decided_by, reason, requested_at, decided_at';

/**
 * Schema version 1 to 2: the runs and approvals tables are rebuilt with their new CHECK constraints (SQLite
 * cannot alter one), keeping their rows in order; the runs get a fencing token of 0. The calls, projections and
 * approvals are rebuilt keyed by (run, turn, call id), each row's turn derived from the run's messages.
 */
const SQLITE_MIGRATION_V1_TO_V2 = `
${runsTable('wuwe_runs_v2')}
INSERT INTO wuwe_runs_v2 (run_id, status, metadata_json, created_at, updated_at)
  SELECT run_id, status, metadata_json, created_at, updated_at FROM wuwe_runs ORDER BY rowid;
DROP TABLE wuwe_runs;
ALTER TABLE wuwe_runs_v2 RENAME TO wuwe_runs;
CREATE INDEX wuwe_runs_by_status ON wuwe_runs (status);
${toolCallsTable('wuwe_tool_calls_v2')}
INSERT INTO wuwe_tool_calls_v2 (${V1_CALL_COLUMNS}, turn)
  SELECT ${V1_CALL_COLUMNS}, ${turnOfVersion1Row('old')} FROM wuwe_tool_calls AS old ORDER BY rowid;
${projectionsTable('wuwe_tool_output_projections_v2')}
INSERT INTO wuwe_tool_output_projections_v2 (${V1_PROJECTION_COLUMNS}, turn)
  SELECT ${V1_PROJECTION_COLUMNS}, ${turnOfVersion1Row('old')} FROM wuwe_tool_output_projections AS old ORDER BY rowid;
${approvalsTable('wuwe_approvals_v2')}
INSERT INTO wuwe_approvals_v2 (${V1_APPROVAL_COLUMNS}, turn)
  SELECT ${V1_APPROVAL_COLUMNS}, ${turnOfVersion1Row('old')} FROM wuwe_approvals AS old ORDER BY rowid;
DROP TABLE wuwe_tool_output_projections;
DROP TABLE wuwe_tool_calls;
DROP TABLE wuwe_approvals;
ALTER TABLE wuwe_tool_calls_v2 RENAME TO wuwe_tool_calls;
ALTER TABLE wuwe_tool_output_projections_v2 RENAME TO wuwe_tool_output_projections;
ALTER TABLE wuwe_approvals_v2 RENAME TO wuwe_approvals;
UPDATE wuwe_schema SET version = 2;
`;

/**
 * Creates the schema in a file {@link identifySqliteFile} found empty, or migrates an older version in place,
 * in one immediate transaction (it identifies the file again under the write lock, for a racing opener).
 * Call it with foreign keys off: the migration rebuilds tables other tables refer to.
 */
export function openSqliteSchema(db: Database.Database, chainer: RecordChainer): void {
  db.transaction(() => {
    const found = inspect(db);
    if (found.kind === 'empty') {
      db.exec(SQLITE_SCHEMA);
      db.prepare('INSERT INTO wuwe_schema (id, version) VALUES (1, ?)').run(AGENT_RUN_RECORD_SCHEMA_VERSION);
      return;
    }
    if (found.version === 1) db.exec(SQLITE_MIGRATION_V1_TO_V2);
    if (found.version < 3) migrateV2ToV3(db, chainer);
    const violations = db.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0)
      throw new RunStoreError(
        'store_corrupt',
        `The wuwe tables hold ${violations.length} row(s) referring to missing rows`,
      );
  }).immediate();
}

function inspect(db: Database.Database): SqliteFileKind {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  if (!tables.includes('wuwe_schema')) {
    if (tables.some((name) => name in STORE_TABLE_COLUMNS)) {
      throw new RunStoreError('store_corrupt', 'The database has wuwe tables but no wuwe_schema version table');
    }
    const foreign = tables.filter((name) => !isWuweModuleTable(name));
    if (foreign.length > 0) {
      throw new RunStoreError(
        'store_foreign',
        `The database belongs to another application (tables: ${foreign.slice(0, 5).join(', ')})`,
      );
    }
    return { kind: 'empty' };
  }
  const version = readVersion(db);
  checkSchemaVersion(version);
  const layout = new Map(
    tables.map((name) => [
      name,
      (db.pragma(`table_info(${JSON.stringify(name)})`) as { name: string }[]).map((column) => column.name),
    ]),
  );
  const problem = findLayoutProblem(layout, Number(version));
  if (problem) throw new RunStoreError('store_corrupt', `The wuwe schema is damaged: ${problem}`);
  return { kind: 'wuwe', version: Number(version) };
}

function readVersion(db: Database.Database): unknown {
  let rows: { version: unknown }[];
  try {
    rows = db.prepare('SELECT version FROM wuwe_schema').all() as { version: unknown }[];
  } catch (error) {
    throw new RunStoreError('store_corrupt', 'The wuwe_schema table cannot be read', { cause: error });
  }
  if (rows.length !== 1)
    throw new RunStoreError('store_corrupt', `The wuwe_schema table has ${rows.length} rows instead of one`);
  return rows[0].version;
}
