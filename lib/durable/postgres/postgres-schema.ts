import type { PoolClient } from 'pg';
import { AGENT_RUN_RECORD_SCHEMA_VERSION } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';
import { checkSchemaVersion } from '../schema-version';
import { findLayoutProblem, STORE_TABLE_COLUMNS } from '../store-layout';
import { migrationEntries } from '../chain/migration-chain';
import type { RecordChainer } from '../chain/record-chainer';
import type { ReadingStatement, RunStoreStatementRows } from '../sql/run-store-statements';
import { postgresStatements } from './postgres-statements';

const RUN_STATUS_CHECK = "status IN ('running', 'awaiting_approval', 'completed', 'stopped', 'failed', 'cancelled')";
const APPROVAL_STATE_CHECK = "state IN ('pending', 'approved', 'denied', 'cancelled')";

/**
 * The turn of a version-1 row of `alias` (a call, projection or approval): the ordinal among its run's assistant
 * messages of the first one that carries its call id (version 1 bound a call id to its first call), else 1.
 */
function turnOfVersion1Row(schema: string, alias: string): string {
  return `COALESCE((
    SELECT (SELECT count(*) FROM ${schema}.wuwe_messages AS earlier
            WHERE earlier.run_id = m.run_id AND earlier.seq <= m.seq AND earlier.message_json::jsonb ->> 'role' = 'assistant')
    FROM ${schema}.wuwe_messages AS m
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(m.message_json::jsonb -> 'toolCalls') = 'array'
                                                 THEN m.message_json::jsonb -> 'toolCalls' ELSE '[]'::jsonb END) AS tc(value)
    WHERE m.run_id = ${alias}.run_id AND m.message_json::jsonb ->> 'role' = 'assistant' AND tc.value ->> 'id' = ${alias}.call_id
    ORDER BY m.seq LIMIT 1), 1)`;
}

/**
 * Schema version 1 to 2, in the caller's transaction: the fencing token column, the `stopped` status and the
 * `cancelled` approval state (version 1 named its CHECK constraints by PostgreSQL's default rule), and the turn
 * that with the call id identifies a call, derived for each existing row from its run's messages.
 */
function migrationV1ToV2(schema: string): string {
  const calls = `${schema}.wuwe_tool_calls`;
  const projections = `${schema}.wuwe_tool_output_projections`;
  const approvals = `${schema}.wuwe_approvals`;
  return `
ALTER TABLE ${schema}.wuwe_runs ADD COLUMN fencing_token BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ${schema}.wuwe_runs DROP CONSTRAINT wuwe_runs_status_check, ADD CONSTRAINT wuwe_runs_status_check CHECK (${RUN_STATUS_CHECK});
ALTER TABLE ${approvals} DROP CONSTRAINT wuwe_approvals_state_check, ADD CONSTRAINT wuwe_approvals_state_check CHECK (${APPROVAL_STATE_CHECK});
ALTER TABLE ${calls} ADD COLUMN turn INTEGER NOT NULL DEFAULT 1 CHECK (turn >= 1);
ALTER TABLE ${projections} ADD COLUMN turn INTEGER NOT NULL DEFAULT 1 CHECK (turn >= 1);
ALTER TABLE ${approvals} ADD COLUMN turn INTEGER NOT NULL DEFAULT 1 CHECK (turn >= 1);
UPDATE ${calls} AS old SET turn = ${turnOfVersion1Row(schema, 'old')};
UPDATE ${projections} AS old SET turn = ${turnOfVersion1Row(schema, 'old')};
UPDATE ${approvals} AS old SET turn = ${turnOfVersion1Row(schema, 'old')};
ALTER TABLE ${projections} DROP CONSTRAINT wuwe_tool_output_projections_run_id_call_id_fkey, DROP CONSTRAINT wuwe_tool_output_projections_pkey;
ALTER TABLE ${calls} DROP CONSTRAINT wuwe_tool_calls_pkey, ADD CONSTRAINT wuwe_tool_calls_pkey PRIMARY KEY (run_id, turn, call_id), ALTER COLUMN turn DROP DEFAULT;
ALTER TABLE ${projections} ADD CONSTRAINT wuwe_tool_output_projections_pkey PRIMARY KEY (run_id, turn, call_id), ALTER COLUMN turn DROP DEFAULT,
  ADD CONSTRAINT wuwe_tool_output_projections_call_fkey FOREIGN KEY (run_id, turn, call_id) REFERENCES ${calls} (run_id, turn, call_id) ON DELETE CASCADE;
ALTER TABLE ${approvals} DROP CONSTRAINT wuwe_approvals_pkey, ADD CONSTRAINT wuwe_approvals_pkey PRIMARY KEY (run_id, turn, call_id), ALTER COLUMN turn DROP DEFAULT;
UPDATE ${schema}.wuwe_schema SET version = 2;
`;
}

/** DDL of schema version 2 for PostgreSQL, in `schema` (already quoted). */
function postgresSchema(schema: string): string {
  return `
CREATE TABLE ${schema}.wuwe_schema (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
CREATE TABLE ${schema}.wuwe_runs (
  run_id TEXT PRIMARY KEY,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  status TEXT NOT NULL CONSTRAINT wuwe_runs_status_check CHECK (${RUN_STATUS_CHECK}),
  metadata_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  fencing_token BIGINT NOT NULL DEFAULT 0,
  chain_head TEXT,
  chain_length INTEGER NOT NULL DEFAULT 0
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
  turn INTEGER NOT NULL CHECK (turn >= 1),
  PRIMARY KEY (run_id, turn, call_id),
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
  turn INTEGER NOT NULL CHECK (turn >= 1),
  content_sha256 TEXT,
  message_index INTEGER,
  PRIMARY KEY (run_id, turn, call_id),
  CONSTRAINT wuwe_tool_output_projections_call_fkey FOREIGN KEY (run_id, turn, call_id) REFERENCES ${schema}.wuwe_tool_calls (run_id, turn, call_id) ON DELETE CASCADE
);
CREATE TABLE ${schema}.wuwe_approvals (
  run_id TEXT NOT NULL REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  tool_name TEXT NOT NULL,
  arguments_sha256 TEXT NOT NULL,
  state TEXT NOT NULL CONSTRAINT wuwe_approvals_state_check CHECK (${APPROVAL_STATE_CHECK}),
  decided_by TEXT,
  reason TEXT,
  requested_at TEXT NOT NULL,
  decided_at TEXT,
  turn INTEGER NOT NULL CHECK (turn >= 1),
  decided_arguments_sha256 TEXT,
  PRIMARY KEY (run_id, turn, call_id)
);
CREATE TABLE ${schema}.wuwe_leases (
  run_id TEXT PRIMARY KEY REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  worker_id TEXT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
${recordChainTable(schema)}
`;
}

/** The record chain table of schema version 3, in `schema` (already quoted). */
function recordChainTable(schema: string): string {
  return `CREATE TABLE ${schema}.wuwe_record_chain (
  run_id TEXT NOT NULL REFERENCES ${schema}.wuwe_runs (run_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  entity_sha256 TEXT NOT NULL,
  source TEXT NOT NULL,
  key_id TEXT,
  digest TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);`;
}

/**
 * Schema version 2 to 3, in the caller's transaction: the chain columns and table; every decision already
 * stored is bound to the arguments hash it was checked against; every run gets the chain of its record as
 * found, marked as computed by migration.
 */
async function migrateV2ToV3(client: PoolClient, quoted: string, chainer: RecordChainer): Promise<void> {
  await client.query(`
ALTER TABLE ${quoted}.wuwe_runs ADD COLUMN chain_head TEXT, ADD COLUMN chain_length INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ${quoted}.wuwe_tool_output_projections ADD COLUMN content_sha256 TEXT, ADD COLUMN message_index INTEGER;
ALTER TABLE ${quoted}.wuwe_approvals ADD COLUMN decided_arguments_sha256 TEXT;
UPDATE ${quoted}.wuwe_approvals SET decided_arguments_sha256 = arguments_sha256 WHERE state IN ('approved', 'denied') AND decided_at IS NOT NULL;
${recordChainTable(quoted)}`);
  const statements = postgresStatements(quoted);
  const rows = async <K extends ReadingStatement>(key: K, ...values: unknown[]) =>
    (await client.query<RunStoreStatementRows[K]>(statements[key], values)).rows;
  for (const run of await rows('listRuns')) {
    const entries = migrationEntries(chainer, {
      run,
      messages: (await rows('selectMessages', run.run_id)).map((row) => row.message_json),
      calls: await rows('selectCalls', run.run_id),
      projections: await rows('selectProjections', run.run_id),
      approvals: await rows('selectApprovals', run.run_id),
    });
    for (const entry of entries) {
      await client.query(statements.insertChainEntry, [
        run.run_id,
        entry.index,
        entry.kind,
        entry.subject,
        entry.entitySha256,
        entry.source,
        entry.keyId ?? null,
        entry.digest,
      ]);
    }
    await client.query(statements.setChainHead, [
      run.run_id,
      entries[entries.length - 1]?.digest ?? null,
      entries.length,
    ]);
  }
  await client.query(`UPDATE ${quoted}.wuwe_schema SET version = 3`);
}

/**
 * Creates the schema's tables in PostgreSQL schema `schemaName` (unless `create` is false: `store_empty` then), or
 * checks the ones found and migrates an
 * older version in place, inside a transaction the caller opened on `client`. An advisory lock keeps two workers
 * opening at once from racing.
 *
 * Throws `store_corrupt` for wuwe tables without a version or with missing columns, and
 * `schema_version_mismatch` for a version this build does not know.
 */
export async function openPostgresSchema(
  client: PoolClient,
  schemaName: string,
  quoted: string,
  chainer: RecordChainer,
  create = true,
): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`wuwe_schema:${schemaName}`]);
  if (create) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
  const found = await inspectPostgresSchema(client, schemaName, quoted);
  if (found.kind === 'empty') {
    if (!create) throw new RunStoreError('store_empty', `Schema ${schemaName} holds no wuwe run store`);
    await client.query(postgresSchema(quoted));
    await client.query(`INSERT INTO ${quoted}.wuwe_schema (id, version) VALUES (1, $1)`, [
      AGENT_RUN_RECORD_SCHEMA_VERSION,
    ]);
    return;
  }
  if (found.version === 1) await client.query(migrationV1ToV2(quoted));
  if (found.version < 3) await migrateV2ToV3(client, quoted, chainer);
}

/**
 * What PostgreSQL schema `schemaName` holds, found by reading only (a missing schema holds nothing): no run store
 * yet, or a run store of a version this build knows. Throws `store_corrupt` for wuwe tables without a version or
 * with missing columns, and `schema_version_mismatch` for a version this build does not know.
 */
export async function inspectPostgresSchema(
  client: PoolClient,
  schemaName: string,
  quoted: string,
): Promise<{ readonly kind: 'empty' } | { readonly kind: 'wuwe'; readonly version: number }> {
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
    return { kind: 'empty' };
  }
  let versions: { version: unknown }[];
  try {
    versions = (await client.query<{ version: unknown }>(`SELECT version FROM ${quoted}.wuwe_schema`)).rows;
  } catch (error) {
    throw new RunStoreError('store_corrupt', 'The wuwe_schema table cannot be read', { cause: error });
  }
  if (versions.length !== 1)
    throw new RunStoreError('store_corrupt', `The wuwe_schema table has ${versions.length} rows instead of one`);
  checkSchemaVersion(versions[0].version);
  const version = Number(versions[0].version);
  const problem = findLayoutProblem(layout, version);
  if (problem) throw new RunStoreError('store_corrupt', `The wuwe schema in ${schemaName} is damaged: ${problem}`);
  return { kind: 'wuwe', version };
}
