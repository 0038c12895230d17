import { join } from 'node:path';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { escapeTerminalText } from '../../lib/cli/terminal-text';
import { makeTempDir } from '../durable/temp-dir';
import { spawnCli, SpawnedCliRun } from './cli-harness';
import { HOSTILE, HOSTILE_RUN_ID, HOSTILE_WELL_FORMED, PROMPT, runner } from './fixtures/hostile-agent';

const AGENT = join(__dirname, 'fixtures', 'hostile-agent.ts');
/** The hostile text as a command line argument (an argument cannot carry NUL, and travels as UTF-8). */
const HOSTILE_ARG = HOSTILE_WELL_FORMED.replace('\x00', '');

/** Bidirectional overrides, isolates and marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

/** Fails when `bytes` hold a control a terminal would act on, or a character that reorders or hides text. */
function expectTerminalSafe(what: string, bytes: Buffer): void {
  const controls = [...bytes].filter((byte) => byte <= 0x08 || (byte >= 0x0b && byte <= 0x1f) || byte === 0x7f);
  expect({ what, controls }).toEqual({ what, controls: [] });
  const text = bytes.toString('utf8');
  expect({ what, c1: /[\u0080-\u009f]/u.exec(text)?.[0] }).toEqual({ what, c1: undefined });
  expect({ what, bidi: BIDI.exec(text)?.[0] }).toEqual({ what, bidi: undefined });
  // A lone surrogate leaves the process as U+FFFD (or invalid UTF-8, decoded as U+FFFD here).
  expect({ what, replacement: text.includes('\ufffd') }).toEqual({ what, replacement: false });
}

/** Fails when a record's text started a line of its own. */
function expectNoForgedLine(what: string, text: string): void {
  const forged = text.split('\n').filter((line) => line.startsWith('FAKE LINE') || line.startsWith('forged'));
  expect({ what, forged }).toEqual({ what, forged: [] });
}

function expectSafeText(what: string, run: SpawnedCliRun): void {
  expectTerminalSafe(`${what} stdout`, run.stdoutBytes);
  expectTerminalSafe(`${what} stderr`, run.stderrBytes);
  expectNoForgedLine(`${what} stdout`, run.stdout);
  expectNoForgedLine(`${what} stderr`, run.stderr);
}

describe('no control character from a record reaches the terminal raw', () => {
  const dir = makeTempDir('cli-escaping');
  const dbPath = join(dir.path, 'runs.db');
  const store = `sqlite:${dbPath}`;
  const cli = (argv: readonly string[]) => spawnCli([...argv, '--store', store], dir.path);

  beforeAll(async () => {
    const db = new SqliteRunStore(dbPath);
    const result = await runner.complete(PROMPT, { store: db, runId: HOSTILE_RUN_ID });
    expect(result.runId).toBe(HOSTILE_RUN_ID);
    await db.close();
  }, 240_000);
  afterAll(() => dir.cleanup());

  it('escapes every C0, C1, DEL, bidi control and lone surrogate visibly, keeping other text', () => {
    expect(escapeTerminalText('a\x1b[2Jb\u009bc\u202ed\ud800e\x7ff\tg\nh')).toBe(
      'a\\x1b[2Jb\\u009bc\\u202ed\\ud800e\\u007ff\\tg\nh',
    );
    expect(escapeTerminalText('naïve 日本 \u{1f600}')).toBe('naïve 日本 \u{1f600}');
    const every =
      Array.from({ length: 0x3000 }, (_, code) => String.fromCharCode(code)).join('') + '\ud800\udc00\udfff\ud83d';
    expectTerminalSafe('every character', Buffer.from(escapeTerminalText(every)));
  });

  it('runs list, show and approvals list print the escaped forms; --json round-trips the original strings', async () => {
    for (const argv of [
      ['runs', 'list'],
      ['runs', 'show', HOSTILE_RUN_ID],
      ['approvals', 'list'],
      ['approvals', 'list', '--all'],
    ]) {
      const text = await cli(argv);
      expect({ argv, code: text.code }).toEqual({ argv, code: 0 });
      expectSafeText(argv.join(' '), text);
      expect(text.stdout).toContain('run-\\x1b[2J\\u009b\\u202eevil\\nforged');
    }
    const shown = await cli(['runs', 'show', HOSTILE_RUN_ID]);
    expect(shown.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1;31mAPPROVED');

    const list = await cli(['runs', 'list', '--json']);
    expectTerminalSafe('runs list --json', list.stdoutBytes);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ runId: HOSTILE_RUN_ID })]);
    const view = await cli(['runs', 'show', HOSTILE_RUN_ID, '--json']);
    expectTerminalSafe('runs show --json', view.stdoutBytes);
    const parsed = JSON.parse(view.stdout);
    expect(parsed.messages.lastAssistantText).toBe(HOSTILE);
    expect(parsed.toolCalls.map((call: { callId: string }) => call.callId)).toContain(
      `call_echo${HOSTILE_WELL_FORMED}`,
    );
    expect(parsed.toolCalls.find((call: { toolName: string }) => call.toolName === 'wipe').arguments).toEqual({
      target: HOSTILE_WELL_FORMED,
    });
    const approvals = await cli(['approvals', 'list', '--json']);
    expectTerminalSafe('approvals list --json', approvals.stdoutBytes);
    expect(JSON.parse(approvals.stdout)[0].arguments).toEqual({ target: HOSTILE_WELL_FORMED });
  }, 240_000);

  it('approve with a hostile --by and --reason, resume, tail and export stay escaped', async () => {
    const approved = await cli([
      'approvals',
      'approve',
      HOSTILE_RUN_ID,
      'call_wipe',
      '--by',
      HOSTILE_ARG,
      '--reason',
      HOSTILE_ARG,
    ]);
    expect(approved.code).toBe(0);
    expectSafeText('approve', approved);

    const shown = await cli(['runs', 'show', HOSTILE_RUN_ID]);
    expectSafeText('show after approval', shown);
    const decided = JSON.parse((await cli(['approvals', 'list', '--all', '--json'])).stdout)[0];
    expect(decided).toMatchObject({ decidedBy: HOSTILE_ARG, reason: HOSTILE_ARG });

    const resumed = await cli(['resume', HOSTILE_RUN_ID, '--agent', AGENT]);
    expect(resumed.code).toBe(0);
    expectSafeText('resume', resumed);
    expect(resumed.stdout).toContain('assistant: Done \\x1b]0;pwned');
    expect(resumed.stderr).toContain('[model] answers: Done \\x1b]0;pwned');

    const tail = await cli(['runs', 'tail', HOSTILE_RUN_ID]);
    expect(tail.code).toBe(0);
    expectSafeText('tail', tail);
    expect(tail.stdout).toContain('[approval] wipe call_wipe approved by \\x1b]0;pwned');
    const tailJson = await cli(['runs', 'tail', HOSTILE_RUN_ID, '--json']);
    expectTerminalSafe('tail --json', tailJson.stdoutBytes);
    const lines = tailJson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { runId: string; text: string });
    expect(lines.every((line) => line.runId === HOSTILE_RUN_ID)).toBe(true);
    expect(lines.some((line) => line.text.includes('\x1b]0;pwned\x07\x1b[2J'))).toBe(true);

    const html = await cli(['export', HOSTILE_RUN_ID, '--html', '-']);
    expect(html.code).toBe(0);
    expectTerminalSafe('export --html -', html.stdoutBytes);
    expect(html.stdout).toContain('\\x1b]0;pwned');
    expect(html.stdout).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html.stdout).not.toContain('<img');
    const exported = await cli(['export', HOSTILE_RUN_ID, '--json', '-']);
    expectTerminalSafe('export --json -', exported.stdoutBytes);
    const db = new SqliteRunStore(dbPath);
    expect(JSON.parse(exported.stdout)).toEqual(JSON.parse(JSON.stringify(await db.loadRun(HOSTILE_RUN_ID))));
    await db.close();
  }, 300_000);

  it('error messages quoting a hostile argument are escaped, and exact in --json', async () => {
    const missing = `${HOSTILE_ARG}-missing`;
    const text = await cli(['runs', 'show', missing]);
    expect(text.code).toBe(3);
    expectSafeText('not found', text);
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
    const json = await cli(['runs', 'show', missing, '--json']);
    expectTerminalSafe('not found --json', json.stderrBytes);
    expect(JSON.parse(json.stderr).error.message).toBe(`no run '${missing}' in the store`);
    const usage = await cli(['runs', 'list', '--status', HOSTILE_ARG]);
    expect(usage.code).toBe(2);
    expectSafeText('usage', usage);
  }, 240_000);
});
