import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunStoreError } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { describePostgres, requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';
import { runCli, spawnCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

/** The commands that only read the store. */
const READ_ONLY_COMMANDS: readonly (readonly string[])[] = [
  ['runs', 'list'],
  ['runs', 'show', 'run-1'],
  ['runs', 'tail', 'run-1', '--timeout', '50', '--interval', '10'],
  ['export', 'run-1', '--json', 'out.json'],
  ['approvals', 'list'],
];

/** Size, modification time and bytes of a file. */
function fingerprint(path: string): { size: number; mtimeMs: number; bytes: string } {
  const stat = statSync(path);
  return { size: stat.size, mtimeMs: stat.mtimeMs, bytes: readFileSync(path).toString('base64') };
}

describe('read-only commands never write the store', () => {
  const dir = makeTempDir('cli-read-only');
  afterAll(() => dir.cleanup());

  const files: Record<string, () => void> = {
    'empty.db': () => writeFileSync(join(dir.path, 'empty.db'), ''),
    'random.db': () => writeFileSync(join(dir.path, 'random.db'), randomBytes(8192)),
    'foreign.db': () => {
      const db = new Database(join(dir.path, 'foreign.db'));
      db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada');");
      db.close();
    },
  };
  const expected: Record<string, { code: string; exitCode: number; message: RegExp }> = {
    'empty.db': { code: 'store_empty', exitCode: 3, message: /empty\.db.*holds no wuwe run store/ },
    'random.db': { code: 'store_corrupt', exitCode: 1, message: /random\.db.*not a readable database/ },
    'foreign.db': { code: 'store_foreign', exitCode: 1, message: /foreign\.db.*another application.*users/ },
  };

  it.each(Object.keys(files))('refuses %s with a typed error and leaves it byte for byte as it was', async (name) => {
    files[name]();
    const path = join(dir.path, name);
    const before = fingerprint(path);
    for (const command of READ_ONLY_COMMANDS) {
      const argv = [...command, '--store', `sqlite:${path}`];
      // `export --json <file>` asks for JSON too, so its errors are JSON.
      if (command[0] !== 'export') {
        const text = await runCli(argv, dir.path);
        expect({ argv, code: text.code }).toEqual({ argv, code: expected[name].exitCode });
        expect(text.stderr).toMatch(new RegExp(`^wuwe: ${dir.path}/${expected[name].message.source}`));
        expect(text.stderr.trim().split('\n')).toHaveLength(1);
      }
      const json = await runCli(command[0] === 'export' ? argv : [...argv, '--json'], dir.path);
      expect({ argv, code: json.code }).toEqual({ argv, code: expected[name].exitCode });
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: expected[name].code,
          message: expect.stringMatching(expected[name].message),
          exitCode: expected[name].exitCode,
        },
      });
      expect(fingerprint(path)).toEqual(before);
    }
  });

  it('a missing file is not_found and is not created', async () => {
    const path = join(dir.path, 'missing.db');
    for (const command of READ_ONLY_COMMANDS) {
      const result = await runCli([...command, '--store', `sqlite:${path}`], dir.path);
      expect(result.code).toBe(3);
      expect(() => statSync(path)).toThrow();
    }
  });

  it('the writing commands refuse a file that is not a wuwe store too, without writing it', async () => {
    const path = join(dir.path, 'empty-for-write.db');
    writeFileSync(path, '');
    const before = fingerprint(path);
    for (const argv of [
      ['approvals', 'approve', 'run-1', 'call-1'],
      ['resume', 'run-1', '--agent', join(__dirname, 'fixtures', 'approval-agent.ts')],
    ]) {
      const result = await runCli([...argv, '--store', `sqlite:${path}`], dir.path);
      expect({ argv, code: result.code }).toEqual({ argv, code: 3 });
      expect(result.stderr).toMatch(/holds no wuwe run store/);
      expect(fingerprint(path)).toEqual(before);
    }
  });

  it('reads a real store without changing its file, from a child process too', async () => {
    const path = join(dir.path, 'runs.db');
    const db = new SqliteRunStore(path);
    const { runId } = await runner.complete(PROMPT, { store: db });
    await db.close();
    const before = fingerprint(path);
    const listed = await spawnCli(['runs', 'list', '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ runId, status: 'awaiting_approval' })]);
    for (const command of [
      ['runs', 'show', runId],
      ['approvals', 'list'],
      ['export', runId, '--json', 'run.json'],
    ]) {
      const result = await runCli([...command, '--store', `sqlite:${path}`], dir.path);
      expect({ command, code: result.code }).toEqual({ command, code: 0 });
    }
    expect(fingerprint(path)).toEqual(before);
  }, 120_000);

  it('SqliteRunStore readOnly refuses writes and an older schema it would have to migrate', async () => {
    const path = join(dir.path, 'direct.db');
    await (await SqliteRunStore.open(path)).close();
    const store = await SqliteRunStore.open({ path, readOnly: true });
    await expect(store.createRun()).rejects.toMatchObject({ code: 'store_unavailable' });
    await store.close();
    const v1 = new Database(path);
    v1.exec('UPDATE wuwe_schema SET version = 1');
    v1.close();
    const error = await SqliteRunStore.open({ path, readOnly: true }).catch((caught: unknown) => caught);
    expect(RunStoreError.isInstance(error) && error.code).toBe('schema_version_mismatch');
  });
});

describePostgres('read-only commands on PostgreSQL', () => {
  const schemas = new TestSchemas();
  afterAll(() => schemas.dropAll());

  async function tablesOf(schema: string): Promise<string[]> {
    const pool = new Pool({ connectionString: requirePostgresUrl(), max: 1 });
    try {
      const result = await pool.query<{ name: string }>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema],
      );
      return result.rows.map((row) => row.name);
    } finally {
      await pool.end();
    }
  }

  function storeUrl(schema: string): string {
    const url = new URL(requirePostgresUrl());
    url.searchParams.set('schema', schema);
    return url.toString();
  }

  it('creates no schema or table in a database without a run store, and says so', async () => {
    const schema = schemas.fresh();
    for (const command of READ_ONLY_COMMANDS) {
      const result = await runCli(
        [...command, '--store', storeUrl(schema), ...(command[0] === 'export' ? [] : ['--json'])],
        tmpdir(),
      );
      expect({ command, code: result.code }).toEqual({ command, code: 3 });
      if (command[0] !== 'export') expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'store_empty' });
    }
    const pool = new Pool({ connectionString: requirePostgresUrl(), max: 1 });
    const found = await pool.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
    await pool.end();
    expect(found.rowCount).toBe(0);
  });

  it('reads a real store in read-only transactions', async () => {
    const schema = schemas.fresh();
    const db = await PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema });
    const { runId } = await runner.complete(PROMPT, { store: db });
    await db.close();
    const tables = await tablesOf(schema);
    const listed = await runCli(['runs', 'list', '--store', storeUrl(schema), '--json'], tmpdir());
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ runId })]);
    expect(await tablesOf(schema)).toEqual(tables);
    const readOnly = await PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema, readOnly: true });
    await expect(readOnly.createRun()).rejects.toBeDefined();
    expect(await readOnly.loadRun(runId)).toMatchObject({ runId });
    await readOnly.close();
  });
});
