import type { PoolClient } from 'pg';
import { AGENT_RUN_RECORD_SCHEMA_VERSION } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';
import { checkSchemaVersion } from '../schema-version';
import { findLayoutProblem, STORE_TABLE_COLUMNS } from '../store-layout';

/** DDL of schema version 1 for PostgreSQL, in `schema` (already quoted). */
function postgresSchemaV1(schema: string): string {
  return `
CREATE TABLE ${schema}.wuwe_schema (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
CREATE TABLE ${schema}.wuwe_runs (
  run_id TEXT PRIMARY KEY,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  status TEXT NOT NULL CHECK (status IN ('running', 'awaiting_approval', 'completed', 'failed', 'cancelled')),
  metadata_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX wuwe_runs_by_status ON ${schema}.wuwe_runs (status, seq);
CREATE TABLE ${schema}.wuwe_messages (
  run_id TEXT NOT NULL REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  message_json TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE ${schema}.wuwe_tool_calls (
  run_id TEXT NOT NULL REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  tool_name TEXT NOT NULL,
  idempotency_key TEXT UNIQUE,
  attempts INTEGER NOT NULL CHECK (attempts >= 1),
  arguments_sha256 TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('started', 'admitted')),
  outcome_json TEXT,
  started_at TEXT NOT NULL,
  admitted_at TEXT,
  PRIMARY KEY (run_id, call_id),
  CHECK ((status = 'admitted') = (outcome_json IS NOT NULL))
);
CREATE TABLE ${schema}.wuwe_tool_output_projections (
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  tool_name TEXT NOT NULL,
  projected_sha256 TEXT NOT NULL,
  report_json TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (run_id, call_id),
  FOREIGN KEY (run_id, call_id) REFERENCES ${schema}.wuwe_tool_calls (run_id, call_id) ON DELETE CASCADE
);
CREATE TABLE ${schema}.wuwe_approvals (
  run_id TEXT NOT NULL REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  tool_name TEXT NOT NULL,
  arguments_sha256 TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied')),
  decided_by TEXT,
  reason TEXT,
  requested_at TEXT NOT NULL,
  decided_at TEXT,
  PRIMARY KEY (run_id, call_id)
);
CREATE TABLE ${schema}.wuwe_leases (
  run_id TEXT PRIMARY KEY REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  worker_id TEXT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
`;
}

/**
 * Creates the schema's tables in PostgreSQL schema `schemaName`, or checks the ones found, inside a
 * transaction the caller opened on `client`. An advisory lock keeps two workers opening at once from racing.
 *
 * Throws `store_corrupt` for wuwe tables without a version or with missing columns, and
 * `schema_version_mismatch` for a version this build does not know.
 */
export async function openPostgresSchema(client: PoolClient, schemaName: string, quoted: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`wuwe_schema:${schemaName}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
  const result = await client.query<{ table_name: string; columns: string[] }>(
    `SELECT table_name, array_agg(column_name::text) AS columns FROM information_schema.columns
     WHERE table_schema = $1 AND table_name LIKE 'wuwe\\_%' GROUP BY table_name`,
    [schemaName],
  );
  const layout = new Map(result.rows.map((row) => [row.table_name, row.columns]));
  if (!layout.has('wuwe_schema')) {
    if ([...layout.keys()].some((name) => name in STORE_TABLE_COLUMNS)) {
      throw new RunStoreError('store_corrupt', `Schema ${schemaName} has wuwe tables but no wuwe_schema version table`);
    }
    await client.query(postgresSchemaV1(quoted));
    await client.query(`INSERT INTO ${quoted}.wuwe_schema (id, version) VALUES (1, $1)`, [AGENT_RUN_RECORD_SCHEMA_VERSION]);
    return;
  }
  let versions: { version: unknown }[];
  try {
    versions = (await client.query<{ version: unknown }>(`SELECT version FROM ${quoted}.wuwe_schema`)).rows;
  } catch (error) {
    throw new RunStoreError('store_corrupt', 'The wuwe_schema table cannot be read', { cause: error });
  }
  if (versions.length !== 1) throw new RunStoreError('store_corrupt', `The wuwe_schema table has ${versions.length} rows instead of one`);
  checkSchemaVersion(versions[0].version);
  const problem = findLayoutProblem(layout);
  if (problem) throw new RunStoreError('store_corrupt', `The wuwe schema in ${schemaName} is damaged: ${problem}`);
}
