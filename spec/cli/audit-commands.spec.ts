import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { parseRunRecordJsonLines } from '../../lib/durable';
import { makeTempDir } from '../durable/temp-dir';
import { runCli, spawnCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

const KEY = { id: 'ops-1', key: 'a record key of more than sixteen bytes' };

describe('wuwe audit', () => {
  const dir = makeTempDir('cli-audit');
  const cleanPath = join(dir.path, 'clean.db');
  const keyedPath = join(dir.path, 'keyed.db');
  let runId: string;
  let keyedRunId: string;

  /** A copy of the clean store, for one test to edit by hand. */
  const copyOfClean = (name: string): string => {
    const path = join(dir.path, name);
    copyFileSync(cleanPath, path);
    return path;
  };
  const edit = (path: string, sql: string, ...params: unknown[]): void => {
    const db = new Database(path);
    expect(db.prepare(sql).run(...params).changes).toBe(1);
    db.close();
  };

  beforeAll(async () => {
    const clean = new SqliteRunStore(cleanPath);
    runId = (await runner.complete(PROMPT, { store: clean })).runId;
    await clean.close();
    const keyed = new SqliteRunStore({ path: keyedPath, recordKey: KEY });
    keyedRunId = (await runner.complete(PROMPT, { store: keyed })).runId;
    await keyed.close();
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('verifies an untouched run: entry count, head, none from migration; the same as JSON', async () => {
    const text = await runCli(['audit', 'verify', runId, '--store', `sqlite:${cleanPath}`], dir.path);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(
      new RegExp(`^verified: run ${runId}: (\\d+) entries, head [0-9a-f]{64}, 0 from migration\\n$`),
    );
    const json = await runCli(['audit', 'verify', runId, '--store', `sqlite:${cleanPath}`, '--json'], dir.path);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toEqual({
      runId,
      ok: true,
      entries: expect.any(Number),
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
      migratedEntries: 0,
    });
    expect(text.stdout).toContain(`${result.entries} entries, head ${result.head}`);
  });

  it('names the entry of an admitted outcome edited with SQL, and runs show refuses the run as tampered', async () => {
    const path = copyOfClean('outcome-edited.db');
    edit(
      path,
      "UPDATE wuwe_tool_calls SET outcome_json = ? WHERE call_id = 'call_weather'",
      JSON.stringify({ ok: true, text: 'Tokyo is 35 degrees Celsius.' }),
    );
    const before = statSync(path).mtimeMs;
    const verify = await runCli(['audit', 'verify', runId, '--store', `sqlite:${path}`], dir.path);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      new RegExp(
        `^not verified: run ${runId}: entry \\d+ \\(call_admitted call:1:call_weather\\): the record differs from what this entry wrote\\n$`,
      ),
    );
    const json = await runCli(['audit', 'verify', runId, '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      runId,
      ok: false,
      entry: { index: expect.any(Number), kind: 'call_admitted', subject: 'call:1:call_weather' },
      reason: 'the record differs from what this entry wrote',
    });

    const show = await runCli(['runs', 'show', runId, '--store', `sqlite:${path}`], dir.path);
    expect(show).toMatchObject({ code: 1, stdout: '' });
    expect(show.stderr).toMatch(
      new RegExp(
        `^wuwe: the stored record of run ${runId} was changed outside the store, so it was refused: .*call:1:call_weather.*inspect it with: wuwe audit verify ${runId}\\n$`,
      ),
    );
    const showJson = await runCli(['runs', 'show', runId, '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(showJson.code).toBe(1);
    expect(JSON.parse(showJson.stderr)).toEqual({
      error: { code: 'record_tampered', message: expect.stringContaining('wuwe audit verify'), exitCode: 1 },
    });
    // Verifying only reads.
    expect(statSync(path).mtimeMs).toBe(before);
  });

  it('names the message entry of a message edited with SQL', async () => {
    const path = copyOfClean('message-edited.db');
    edit(
      path,
      "UPDATE wuwe_messages SET message_json = json_set(message_json, '$.content', 'Delete every database.') WHERE seq = 1",
    );
    const verify = await runCli(['audit', 'verify', runId, '--store', `sqlite:${path}`], dir.path);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      /entry \d+ \(message_appended message:0\): the record differs from what this entry wrote/,
    );
  });

  it('answers a stored run whose metadata nests 20,000 levels deep with a verdict naming the run, not a crash', async () => {
    const path = copyOfClean('deep-metadata.db');
    edit(path, 'UPDATE wuwe_runs SET metadata_json = ?', `{"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    const verify = await runCli(['audit', 'verify', runId, '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(verify).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(verify.stdout)).toEqual({
      runId,
      ok: false,
      // The run's latest entry: its metadata is part of what the run's entries hash.
      entry: { index: expect.any(Number), kind: 'status_changed', subject: 'run' },
      reason: 'the record is malformed: metadata nests deeper than the 272 levels a record may have',
    });
  });

  it.each<[string, (lines: string[]) => void, RegExp]>([
    [
      'approvals: [null]',
      (lines) => (lines[1] = JSON.stringify({ ...JSON.parse(lines[1]), approvals: [null] })),
      /malformed: approval 0 must be an object/,
    ],
    [
      'metadata nested 20,000 levels deep',
      (lines) =>
        (lines[1] = lines[1].replace(/^\{/, `{"metadata":{"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}},`)),
      /malformed: metadata nests deeper than/,
    ],
    [
      'a header naming another run',
      (lines) => (lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), runId: 'another-run' })),
      /header names run "another-run"/,
    ],
  ])('refuses an export with %s as record_invalid, naming what is wrong', async (name, change, message) => {
    const file = `malformed-${name.replace(/\W+/g, '-')}.jsonl`;
    expect(
      (await runCli(['audit', 'export', runId, '--store', `sqlite:${cleanPath}`, '--out', file], dir.path)).code,
    ).toBe(0);
    const lines = readFileSync(join(dir.path, file), 'utf8').split('\n');
    change(lines);
    writeFileSync(join(dir.path, file), lines.join('\n'));
    const verify = await runCli(['audit', 'verify', '--file', file, '--json'], dir.path);
    expect(verify).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(verify.stderr).error).toMatchObject({
      code: 'record_invalid',
      message: expect.stringMatching(message),
    });
  });

  it('prints the bad entry with its terminal text escaped', async () => {
    const path = copyOfClean('escape-edited.db');
    edit(
      path,
      'UPDATE wuwe_record_chain SET subject = ? WHERE run_id = ? AND seq = (SELECT MIN(seq) FROM wuwe_record_chain WHERE run_id = ?)',
      'run\u001b[2J\u202e',
      runId,
      runId,
    );
    const verify = await spawnCli(['audit', 'verify', runId, '--store', `sqlite:${path}`], dir.path);
    expect(verify.code).toBe(1);
    expect(verify.stdoutBytes.includes(0x1b)).toBe(false);
    expect(verify.stdout).toContain('\\x1b[2J\\u202e');
  });

  it('exports a run as JSON lines that verify offline, and an edited line fails', async () => {
    const out = await runCli(
      ['audit', 'export', runId, '--store', `sqlite:${cleanPath}`, '--out', 'run.jsonl'],
      dir.path,
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^wrote run .* chain entries\) to .*run\.jsonl: \d+ bytes\n$/);
    const text = readFileSync(join(dir.path, 'run.jsonl'), 'utf8');
    const toStdout = await runCli(['audit', 'export', runId, '--store', `sqlite:${cleanPath}`], dir.path);
    expect(toStdout).toMatchObject({ code: 0, stdout: text });
    expect(parseRunRecordJsonLines(text).runId).toBe(runId);

    const verify = await runCli(['audit', 'verify', '--file', 'run.jsonl'], dir.path);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^verified: run ${runId}: \\d+ entries`));

    const lines = text.split('\n');
    // The admitted outcome, as parsed and as its raw JSON text (the text is what the chain attests).
    lines[1] = lines[1].replaceAll('Tokyo is 22 degrees', 'Tokyo is 35 degrees');
    expect(lines[1]).toContain('35 degrees');
    writeFileSync(join(dir.path, 'edited.jsonl'), lines.join('\n'));
    const edited = await runCli(['audit', 'verify', '--file', 'edited.jsonl', '--json'], dir.path);
    expect(edited.code).toBe(1);
    expect(JSON.parse(edited.stdout)).toMatchObject({
      ok: false,
      entry: { kind: 'call_admitted', subject: 'call:1:call_weather' },
    });

    const dropped = text
      .split('\n')
      .filter((_, index) => index !== 3)
      .join('\n');
    writeFileSync(join(dir.path, 'dropped.jsonl'), dropped);
    const droppedRun = await runCli(['audit', 'verify', '--file', 'dropped.jsonl', '--json'], dir.path);
    expect(droppedRun.code).toBe(1);
    expect(JSON.parse(droppedRun.stderr).error.code).toBe('record_invalid');
  });

  it('a keyed chain verifies with its key file only', async () => {
    const store = `sqlite:${keyedPath}`;
    const without = await runCli(['audit', 'verify', keyedRunId, '--store', store], dir.path);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("it is signed with key 'ops-1', which was not given");

    writeFileSync(join(dir.path, 'key.json'), JSON.stringify(KEY));
    expect(
      (await runCli(['audit', 'verify', keyedRunId, '--store', store, '--key-file', 'key.json'], dir.path)).code,
    ).toBe(0);
    // The same key as hex and base64, in a ring with another key.
    const bytes = Buffer.from(KEY.key, 'utf8');
    for (const encoding of ['hex', 'base64'] as const) {
      writeFileSync(
        join(dir.path, `ring-${encoding}.json`),
        JSON.stringify([
          { id: 'other', key: 'x'.repeat(32) },
          { id: 'ops-1', encoding, key: bytes.toString(encoding) },
        ]),
      );
      const ring = await runCli(
        ['audit', 'verify', keyedRunId, '--store', store, '--key-file', `ring-${encoding}.json`],
        dir.path,
      );
      expect({ encoding, code: ring.code }).toEqual({ encoding, code: 0 });
    }
    writeFileSync(
      join(dir.path, 'wrong.json'),
      JSON.stringify({ id: 'ops-1', key: 'another key of more than sixteen bytes' }),
    );
    const wrong = await runCli(['audit', 'verify', keyedRunId, '--store', store, '--key-file', 'wrong.json'], dir.path);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('its digest does not match');
    // A plain chain given a key is not the keyed chain asked for.
    const plain = await runCli(
      ['audit', 'verify', runId, '--store', `sqlite:${cleanPath}`, '--key-file', 'key.json'],
      dir.path,
    );
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('a keyed chain was required');
  });

  it.each([
    ['not JSON', `{"id":"k","key":"${KEY.key}"`, /is not JSON$/],
    ['an empty ring', '[]', /holds no key/],
    ['a string', '"secret"', /must be an object/],
    [
      'a __proto__ field',
      `{"id":"k","key":"${KEY.key}","__proto__":{"encoding":"hex"}}`,
      /unknown field\(s\) "__proto__"/,
    ],
    ['a misspelt field', `{"id":"k","key":"${KEY.key}","encodng":"hex"}`, /unknown field\(s\) "encodng"/],
    ['an empty id', `{"id":"","key":"${KEY.key}"}`, /"id" must be a non-empty string/],
    ['a number key', '{"id":"k","key":12345678901234567890}', /"key" of 'k' must be a string/],
    [
      'an unknown encoding',
      `{"id":"k","key":"${KEY.key}","encoding":"rot13"}`,
      /"encoding" of 'k' must be one of utf8, hex, base64/,
    ],
    ['bad hex', '{"id":"k","encoding":"hex","key":"zz00112233445566778899aabbccddeeff"}', /is not valid hex/],
    ['bad base64', '{"id":"k","encoding":"base64","key":"not base64 at all!!"}', /is not valid base64/],
    ['a lone surrogate', '{"id":"k","key":"\\ud800 and more than sixteen bytes"}', /is not valid utf8/],
    ['a short key', '{"id":"k","key":"short"}', /shorter than 16 bytes/],
    ['a repeated id', `[{"id":"k","key":"${KEY.key}"},{"id":"k","key":"${KEY.key}!"}]`, /key id 'k' appears twice/],
  ])('refuses a key file with %s as a usage error, without quoting the key', async (_, content, message) => {
    writeFileSync(join(dir.path, 'bad-key.json'), content);
    for (const argv of [
      ['audit', 'verify', runId, '--store', `sqlite:${cleanPath}`, '--key-file', 'bad-key.json', '--json'],
      ['audit', 'verify', '--file', 'run.jsonl', '--key-file', 'bad-key.json', '--json'],
    ]) {
      const result = await runCli(argv, dir.path);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      const error = JSON.parse(result.stderr).error;
      expect(error).toEqual({ code: 'usage', message: expect.stringMatching(message), exitCode: 2 });
      expect(error.message).not.toContain(KEY.key);
    }
  });

  it('a missing run, export or key file is not found; a run and --file together are a usage error', async () => {
    const store = `sqlite:${cleanPath}`;
    for (const argv of [
      ['audit', 'verify', 'no-such-run', '--store', store],
      ['audit', 'export', 'no-such-run', '--store', store],
      ['audit', 'verify', '--file', 'missing.jsonl'],
      ['audit', 'verify', runId, '--store', store, '--key-file', 'missing.json'],
    ]) {
      const result = await runCli(argv, dir.path);
      expect({ argv, code: result.code }).toEqual({ argv, code: 3 });
      expect(result.stderr).toMatch(
        /^wuwe: (no run 'no-such-run' in the store|cannot read the (export|key file) .*)\n$/,
      );
    }
    expect((await runCli(['audit', 'verify', runId, '--file', 'run.jsonl'], dir.path)).code).toBe(2);
    expect((await runCli(['audit', 'verify', '--file', 'run.jsonl', '--store', store], dir.path)).code).toBe(2);
    expect((await runCli(['audit', 'verify'], dir.path)).code).toBe(2);
  });
});
