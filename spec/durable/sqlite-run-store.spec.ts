import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentRunRecord } from '../../lib/durable';
import { RunStoreError, toolText } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { PNG_1X1 } from '../support/tiny-images';
import { describeCallIdentity } from './call-identity-suite';
import { describeRunStore, identity } from './run-store-suite';
import { makeTempDir } from './temp-dir';
import { expectMigratedTurns, version1TurnsSql } from './v1-turns';

const dir = makeTempDir('sqlite');
afterAll(() => dir.cleanup());
let counter = 0;
const nextPath = (): string => join(dir.path, `db-${++counter}`, 'runs.db');

describeRunStore('SqliteRunStore', async (clock) => new SqliteRunStore({ path: nextPath(), clock }));
describeCallIdentity('SqliteRunStore', async () => new SqliteRunStore({ path: nextPath() }));

describe('SqliteRunStore file', () => {
  it('creates missing directories, uses WAL, and keeps runs across reopening', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    await store.createRun({ runId: 'r' });
    await store.recordCallStarted('r', identity('c1', { to: 'a' }));
    await store.admitOutcome('r', 'c1', toolText('sent'), 1);
    await store.close();
    expect(existsSync(path)).toBe(true);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare('SELECT version FROM wuwe_schema').pluck().get()).toBe(3);
    raw.close();
    const reopened = await SqliteRunStore.open({ path });
    expect((await reopened.loadRun('r'))!.toolCalls[0].outcomeJson).toBe('{"ok":true,"text":"sent"}');
    await reopened.close();
  });

  it('enforces uniqueness of call ids and idempotency keys in the database itself', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    await store.createRun({ runId: 'r' });
    await store.recordCallStarted('r', identity('c1', { to: 'a' }, { idempotencyKey: 'k' }));
    await store.close();
    const raw = new Database(path);
    const insert = raw.prepare(
      "INSERT INTO wuwe_tool_calls (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, started_at, turn) VALUES ('r', ?, 't', ?, 1, 'h', '{}', 'started', 'now', 1)",
    );
    expect(() => insert.run('c1', null)).toThrow(/UNIQUE/);
    expect(() => insert.run('c2', 'k')).toThrow(/UNIQUE/);
    expect(() => raw.prepare("UPDATE wuwe_tool_calls SET status = 'admitted' WHERE call_id = 'c1'").run()).toThrow(
      /CHECK/,
    );
    raw.close();
  });
});

describe('SqliteRunStore bad input', () => {
  const open = (path: string) => () => new SqliteRunStore(path);

  it('rejects a file of random bytes as store_corrupt and leaves it untouched', () => {
    const path = join(dir.path, 'random.db');
    const bytes = randomBytes(8192);
    writeFileSync(path, bytes);
    expect(open(path)).toThrow(RunStoreError);
    expect(open(path)).toThrow(expect.objectContaining({ code: 'store_corrupt' }));
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("rejects another application's database as store_foreign without adding tables", () => {
    const path = join(dir.path, 'foreign.db');
    const raw = new Database(path);
    raw.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    raw.close();
    expect(open(path)).toThrow(
      expect.objectContaining({ code: 'store_foreign', message: expect.stringContaining('invoices') }),
    );
    const check = new Database(path);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['invoices']);
    check.close();
  });

  it('identifies a foreign or damaged file before writing anything: the file stays byte for byte the same', () => {
    const foreign = join(dir.path, 'foreign-bytes.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (9.5)');
    other.close();
    const headless = join(dir.path, 'headless-bytes.db');
    const partial = new Database(headless);
    partial.exec('CREATE TABLE wuwe_runs (run_id TEXT)');
    partial.close();
    for (const [path, expected] of [
      [foreign, 'store_foreign'],
      [headless, 'store_corrupt'],
    ]) {
      const before = readFileSync(path);
      expect(before[18]).toBe(1); // a rollback-journal file: switching it to WAL would change this byte
      expect(open(path)).toThrow(expect.objectContaining({ code: expected }));
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(false);
    }
  });

  it('refuses to load a run whose stored tool message has damaged image parts (record_invalid), so they never reach a model', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    await store.createRun({ runId: 'r' });
    await store.appendMessages('r', [
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 't',
        content: 'x',
        isError: false,
        parts: [{ type: 'image', mediaType: 'image/png', data: PNG_1X1 }],
      },
    ]);
    await store.close();
    const raw = new Database(path);
    raw
      .prepare('UPDATE wuwe_messages SET message_json = replace(message_json, ?, ?)')
      .run('image/png', 'image/svg+xml');
    raw.close();
    const reopened = new SqliteRunStore(path);
    await expect(reopened.loadRun('r')).rejects.toMatchObject({
      code: 'record_invalid',
      message: expect.stringContaining('image/svg+xml'),
    });
    await reopened.close();
    const exported = {
      schemaVersion: 2,
      runId: 'r',
      status: 'running',
      messages: [
        {
          role: 'tool',
          toolCallId: 'c1',
          toolName: 't',
          content: 'x',
          isError: false,
          parts: [{ type: 'image', mediaType: 'image/png', data: '???' }],
        },
      ],
      toolCalls: [],
      toolOutputProjections: [],
      approvals: [],
      createdAt: 'x',
      updatedAt: 'x',
    };
    expect(() => parseAgentRunRecord(exported)).toThrow(
      expect.objectContaining({ code: 'record_invalid', message: expect.stringContaining('message 0: part 0') }),
    );
  });

  it('rejects a damaged wuwe layout as store_corrupt', () => {
    const path = join(dir.path, 'damaged.db');
    new SqliteRunStore(path).close().catch(() => undefined);
    const raw = new Database(path);
    raw.exec('DROP TABLE wuwe_leases');
    raw.close();
    expect(open(path)).toThrow(
      expect.objectContaining({ code: 'store_corrupt', message: expect.stringContaining('wuwe_leases') }),
    );
    const headless = join(dir.path, 'headless.db');
    const other = new Database(headless);
    other.exec('CREATE TABLE wuwe_runs (run_id TEXT)');
    other.close();
    expect(open(headless)).toThrow(expect.objectContaining({ code: 'store_corrupt' }));
  });

  it('rejects a newer or unknown schema version', () => {
    for (const version of [4, 99, 0]) {
      const path = join(dir.path, `version-${version}.db`);
      new SqliteRunStore(path).close().catch(() => undefined);
      const raw = new Database(path);
      raw.prepare('UPDATE wuwe_schema SET version = ?').run(version);
      raw.close();
      expect(open(path)).toThrow(expect.objectContaining({ code: 'schema_version_mismatch' }));
    }
  });

  it('fails with store_unavailable while another process holds the write lock, writing nothing', async () => {
    const path = nextPath();
    const store = new SqliteRunStore({ path, busyTimeoutMs: 50 });
    await store.createRun({ runId: 'r' });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(store.recordCallStarted('r', identity('c1', { to: 'a' }))).rejects.toEqual(
      expect.objectContaining({ code: 'store_unavailable' }),
    );
    other.exec('ROLLBACK');
    other.close();
    expect((await store.loadRun('r'))!.toolCalls).toEqual([]);
    await store.close();
  });
});

describe('SqliteRunStore version-1 fixture', () => {
  it('migrates a version-1 database in place to version 3 and reads the same record as the version-1 JSON fixture', async () => {
    const path = join(dir.path, 'fixture-v1.db');
    const raw = new Database(path);
    raw.exec(readFileSync(join(__dirname, 'fixtures', 'sqlite-v1.sql'), 'utf8'));
    raw.close();
    const store = new SqliteRunStore(path);
    const expected = parseAgentRunRecord(readFileSync(join(__dirname, 'fixtures', 'agent-run-record-v1.json'), 'utf8'));
    expect(await store.loadRun(expected.runId)).toEqual(expected);
    await store.setStatus(expected.runId, 'cancelled');
    expect((await store.loadRun(expected.runId))!.approvals.map((approval) => approval.state)).toEqual([
      'approved',
      'cancelled',
    ]);
    await store.setStatus(expected.runId, 'stopped');
    await store.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT version FROM wuwe_schema').pluck().get()).toBe(3);
    expect(check.pragma('foreign_key_check')).toEqual([]);
    check.close();
    const reopened = new SqliteRunStore(path);
    expect((await reopened.loadRun(expected.runId))!.toolCalls).toHaveLength(2);
    await reopened.close();
  });

  it('gives each migrated call, projection audit and approval the turn of its call id in the messages, keeps its key, and resumes the right turn', async () => {
    const path = join(dir.path, 'fixture-v1-turns.db');
    const raw = new Database(path);
    raw.exec(readFileSync(join(__dirname, 'fixtures', 'sqlite-v1.sql'), 'utf8'));
    raw.exec(version1TurnsSql((name) => name));
    raw.close();
    const store = new SqliteRunStore(path);
    await expectMigratedTurns(store);
    await store.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('foreign_key_check')).toEqual([]);
    // The identity is (run, turn, call id) in the database itself.
    const pk = (check.pragma('table_info(wuwe_tool_calls)') as { name: string; pk: number }[])
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk);
    expect(pk.map((column) => column.name)).toEqual(['run_id', 'turn', 'call_id']);
    check.close();
  });
});
