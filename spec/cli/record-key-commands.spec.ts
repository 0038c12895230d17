import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { verifyRunRecord } from '../../lib/durable';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { spawnCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

const KEY = { id: 'ops-1', key: 'a record key of more than sixteen bytes' };
const AGENT = join(__dirname, 'fixtures', 'approval-agent.ts');

/** The read commands of a run, with the arguments after `--store`. */
const readCommands = (runId: string): readonly (readonly string[])[] => [
  ['runs', 'show', runId],
  ['runs', 'list'],
  ['runs', 'tail', runId, '--timeout', '50', '--interval', '10'],
  ['export', runId, '--json', '-'],
  ['export', runId, '--html', '-'],
  ['approvals', 'list'],
  ['approvals', 'list', '--run', runId],
];
const withStore = (path: string, argv: readonly string[], ...more: string[]): string[] => {
  const [first, second, ...rest] = argv;
  return first === 'export'
    ? [first, second, '--store', `sqlite:${path}`, ...rest, ...more]
    : [first, second, ...rest, '--store', `sqlite:${path}`, ...more];
};

describe('wuwe commands on a store written with a record key', () => {
  const dir = makeTempDir('cli-record-keys');
  const keyedPath = join(dir.path, 'keyed.db');
  let runId: string;

  beforeAll(async () => {
    const keyed = new SqliteRunStore({ path: keyedPath, recordKey: KEY });
    runId = (await runner.complete(PROMPT, { store: keyed })).runId;
    await keyed.close();
    writeFileSync(join(dir.path, 'key.json'), JSON.stringify(KEY));
    writeFileSync(join(dir.path, 'wrong.json'), JSON.stringify({ id: 'ops-1', key: 'another key of sixteen bytes' }));
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('every read command without --key-file fails with record_key_missing naming the key, exit 1, printing nothing on stdout', async () => {
    // `export` takes `--json <file>` (any `--json` reports errors as JSON): the other commands get `--json`.
    const json = (argv: readonly string[]): boolean => argv[0] !== 'export' || argv.includes('--json');
    const results = await Promise.all(
      readCommands(runId).map((argv) =>
        spawnCli(argv[0] === 'export' ? withStore(keyedPath, argv) : withStore(keyedPath, argv, '--json'), dir.path),
      ),
    );
    for (const [index, result] of results.entries()) {
      const argv = readCommands(runId)[index];
      expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 1, stdout: '' });
      if (json(argv))
        expect(JSON.parse(result.stderr)).toEqual({
          error: {
            code: 'record_key_missing',
            message: expect.stringMatching(/signed with record key 'ops-1'.*--key-file/),
            exitCode: 1,
          },
        });
      else
        expect(result.stderr).toMatch(
          new RegExp(`^wuwe: the stored record of run ${runId} is signed with record key 'ops-1', .*--key-file.*\\n$`),
        );
    }
  }, 60_000);

  it('every read command with --key-file reads the run', async () => {
    const results = await Promise.all(
      readCommands(runId).map((argv) => spawnCli(withStore(keyedPath, argv, '--key-file', 'key.json'), dir.path)),
    );
    const [show, list, tail, exportJson, exportHtml, approvals, runApprovals] = results;
    expect(show).toMatchObject({ code: 0, stderr: '' });
    expect(show.stdout).toContain('call_delete');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(runId);
    // The run waits for an approval: tail prints it, then gives up at its timeout.
    expect(tail.stdout).toContain('call_delete');
    expect(tail.stderr).not.toContain('record_key');
    expect(exportJson.code).toBe(0);
    expect(JSON.parse(exportJson.stdout).runId).toBe(runId);
    expect(exportHtml.code).toBe(0);
    expect(exportHtml.stdout).toMatch(/^<!doctype html>/i);
    for (const result of [approvals, runApprovals]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('delete_database');
    }
  }, 60_000);

  it('a wrong key, or a record edited by hand, is record_tampered with exit 1', async () => {
    const wrong = await spawnCli(
      withStore(keyedPath, ['runs', 'show', runId], '--key-file', 'wrong.json', '--json'),
      dir.path,
    );
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: 'record_tampered', exitCode: 1 });

    const edited = join(dir.path, 'edited.db');
    copyFileSync(keyedPath, edited);
    const db = new Database(edited);
    db.prepare(
      "UPDATE wuwe_tool_calls SET outcome_json = replace(outcome_json, '22', '35') WHERE call_id = 'call_weather'",
    ).run();
    db.close();
    const show = await spawnCli(withStore(edited, ['runs', 'show', runId], '--key-file', 'key.json'), dir.path);
    expect(show).toMatchObject({ code: 1, stdout: '' });
    expect(show.stderr).toMatch(/was changed outside the store.*call:1:call_weather.*wuwe audit verify/);
  }, 60_000);

  it('approves and resumes with --key-file, signing the new entries with the key', async () => {
    const path = join(dir.path, 'decide.db');
    copyFileSync(keyedPath, path);
    const store = `sqlite:${path}`;
    const refused = await spawnCli(
      ['approvals', 'approve', runId, 'call_delete', '--store', store, '--by', 'ops'],
      dir.path,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("record key 'ops-1'");
    const approve = await spawnCli(
      ['approvals', 'approve', runId, 'call_delete', '--store', store, '--by', 'ops', '--key-file', 'key.json'],
      dir.path,
    );
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain('approved: delete_database call_delete');
    const resume = await spawnCli(
      ['resume', runId, '--agent', AGENT, '--store', store, '--key-file', 'key.json', '--quiet'],
      dir.path,
    );
    expect({ code: resume.code, stderr: resume.stderr }).toEqual({ code: 0, stderr: '' });
    const tail = await spawnCli(['runs', 'tail', runId, '--store', store, '--key-file', 'key.json'], dir.path);
    expect(tail.code).toBe(0);

    const reopened = new SqliteRunStore({ path, recordKey: KEY });
    const record = (await reopened.exportRun(runId))!;
    await reopened.close();
    expect(record.status).toBe('completed');
    expect(record.chain.entries.every((entry) => entry.keyId === 'ops-1')).toBe(true);
    expect(verifyRunRecord(record, { keys: KEY })).toMatchObject({ ok: true });
    expect(readFileSync(path).length).toBeGreaterThan(0);
  }, 90_000);
});
