import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { RunStore } from '../../../lib';
import { parseAgentRunRecord, RecordKeyOption, verifyRunRecord } from '../../../lib/durable';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { requirePostgresUrl, TestSchemas } from '../postgres-env';
import { makeTempDir } from '../temp-dir';
import { V1_TURNS_RUN_ID, version1TurnsSql } from '../v1-turns';

const fixture = (name: string): string => readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8');
const expected = parseAgentRunRecord(fixture('agent-run-record-v1.json'));
/** What the migration finds of the fixture run: the run, 3 messages, 2 calls, 1 projection audit, 2 approvals. */
const FIXTURE_PARTS = 1 + 3 + 2 + 1 + 2;
/** The second version-1 run (v1-turns.ts): the run, 4 messages, 3 calls, 1 projection audit, 1 approval. */
const TURNS_PARTS = 1 + 4 + 3 + 1 + 1;
const KEY: RecordKeyOption = { id: 'k1', key: 'a record key of thirty-two bytes' };

/** A version-1 store on disk or in a schema, and how to open it with the current store. */
interface VersionOneStore {
  readonly name: string;
  open(recordKey?: RecordKeyOption): Promise<RunStore>;
  /** Runs SQL against the store's tables (`T.name` becomes the qualified table name). */
  sql(text: string): Promise<void>;
}

const dir = makeTempDir('migrated-chain');
const schemas = new TestSchemas();
let admin: Pool;
beforeAll(() => {
  admin = new Pool({ connectionString: requirePostgresUrl(), max: 2 });
});
afterAll(async () => {
  await admin.end();
  await schemas.dropAll();
  dir.cleanup();
});

let counter = 0;
async function sqliteVersionOne(): Promise<VersionOneStore> {
  const path = join(dir.path, `v1-${++counter}.db`);
  const raw = new Database(path);
  raw.exec(fixture('sqlite-v1.sql'));
  raw.exec(version1TurnsSql((name) => name));
  raw.close();
  return {
    name: 'SQLite',
    open: async (recordKey) => new SqliteRunStore({ path, ...(recordKey ? { recordKey } : {}) }),
    sql: async (text) => {
      const db = new Database(path);
      try {
        db.exec(text.replace(/T\.(wuwe_\w+)/g, '$1'));
      } finally {
        db.close();
      }
    },
  };
}
async function postgresVersionOne(): Promise<VersionOneStore> {
  const schema = schemas.fresh();
  await admin.query(fixture('postgres-v1.sql').replaceAll('__SCHEMA__', schema));
  await admin.query(version1TurnsSql((name) => `"${schema}".${name}`));
  return {
    name: 'PostgreSQL',
    open: (recordKey) =>
      PostgresRunStore.open({
        connectionString: requirePostgresUrl(),
        schema,
        maxConnections: 2,
        ...(recordKey ? { recordKey } : {}),
      }),
    sql: async (text) => {
      await admin.query(text.replace(/T\.(wuwe_\w+)/g, `"${schema}".$1`));
    },
  };
}

describe.each([
  ['SQLite', sqliteVersionOne],
  ['PostgreSQL', postgresVersionOne],
])('%s store migrated from version 1: the record chain', (_name, make) => {
  it('chains every part of each run found at the migration, reports them as migratedEntries, and a later write extends the chain', async () => {
    const v1 = await make();
    const store = await v1.open();
    expect(await store.loadRun(expected.runId)).toEqual(expected);
    const migrated = (await store.exportRun(expected.runId))!;
    expect(migrated.chain.entries.map((entry) => entry.source)).toEqual(Array(FIXTURE_PARTS).fill('migration'));
    expect(migrated.chain.entries.map((entry) => entry.subject)).toEqual([
      'run',
      'message:0',
      'message:1',
      'message:2',
      'call:1:call_refund',
      'call:1:call_email',
      'projection:1:call_refund',
      'approval:1:call_refund',
      'approval:1:call_email',
    ]);
    expect(verifyRunRecord(migrated)).toEqual({
      ok: true,
      entries: FIXTURE_PARTS,
      head: migrated.chain.entries[FIXTURE_PARTS - 1].digest,
      migratedEntries: FIXTURE_PARTS,
    });
    expect(verifyRunRecord((await store.exportRun(V1_TURNS_RUN_ID))!)).toMatchObject({
      ok: true,
      entries: TURNS_PARTS,
      migratedEntries: TURNS_PARTS,
    });

    // A decision after the migration is written, with its lineage, after the migrated entries.
    const pending = expected.approvals.find((approval) => approval.state === 'pending')!;
    await store.decideApproval(expected.runId, pending.callId, {
      approved: true,
      toolName: pending.toolName,
      argumentsSha256: pending.argumentsSha256,
      decidedBy: 'ops@example.com',
    });
    await store.setStatus(expected.runId, 'running');
    const extended = (await store.exportRun(expected.runId))!;
    expect(extended.chain.entries.slice(0, FIXTURE_PARTS)).toEqual(migrated.chain.entries);
    expect(extended.chain.entries.slice(FIXTURE_PARTS).map((entry) => [entry.kind, entry.source])).toEqual([
      ['approval_decided', 'write'],
      ['status_changed', 'write'],
    ]);
    expect(verifyRunRecord(extended)).toMatchObject({
      ok: true,
      entries: FIXTURE_PARTS + 2,
      head: extended.chain.entries[FIXTURE_PARTS + 1].digest,
      migratedEntries: FIXTURE_PARTS,
    });
    await store.close();

    // Reopened, the migration does not run again: the same chain loads and verifies.
    const reopened = await v1.open();
    expect((await reopened.exportRun(expected.runId))!.chain).toEqual(extended.chain);
    expect((await reopened.loadRun(expected.runId))!.status).toBe('running');
    await reopened.close();
  });

  it('detects a migrated part edited by hand after the migration, naming its migrated entry', async () => {
    const v1 = await make();
    await (await v1.open()).close();
    await v1.sql(
      `UPDATE T.wuwe_tool_calls SET outcome_json = replace(outcome_json, 'rf_1', 'rf_9') WHERE call_id = 'call_refund'`,
    );
    const store = await v1.open();
    await expect(store.loadRun(expected.runId)).rejects.toMatchObject({
      code: 'record_tampered',
      entryIndex: 4,
      entryKind: 'call_admitted',
      entrySubject: 'call:1:call_refund',
    });
    const verification = verifyRunRecord((await store.exportRun(expected.runId))!);
    expect(verification).toMatchObject({ ok: false, entry: { index: 4, subject: 'call:1:call_refund' } });
    await store.close();
  });

  it('with a record key, signs the migrated entries with it; the key ring verifies them, no key does not', async () => {
    const v1 = await make();
    const store = await v1.open(KEY);
    const migrated = (await store.exportRun(expected.runId))!;
    expect(migrated.chain.entries.every((entry) => entry.keyId === 'k1' && entry.source === 'migration')).toBe(true);
    expect(verifyRunRecord(migrated, { keys: [KEY] })).toMatchObject({
      ok: true,
      migratedEntries: FIXTURE_PARTS,
    });
    expect(verifyRunRecord(migrated)).toMatchObject({ ok: false, entry: { index: 0 } });
    await store.setStatus(expected.runId, 'stopped');
    const extended = (await store.exportRun(expected.runId))!;
    expect(verifyRunRecord(extended, { keys: KEY })).toMatchObject({
      ok: true,
      entries: FIXTURE_PARTS + 1,
      migratedEntries: FIXTURE_PARTS,
    });
    await store.close();
  });
});
