import { join } from 'node:path';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { main } from '../../lib/cli/main';
import { CliIo } from '../../lib/cli/cli-io';
import { makeTempDir } from '../durable/temp-dir';
import { PROMPT, runner } from './fixtures/approval-agent';

const AGENT = join(__dirname, 'fixtures', 'approval-agent.ts');
const ERASE = '\r\x1b[2K';

/** Runs `wuwe` with stderr a terminal or not. */
async function cli(argv: readonly string[], cwd: string, stderrIsTTY: boolean, onPoll?: () => Promise<void>) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    env: {},
    stderrIsTTY,
    columns: 200,
    sleep: async () => {
      await onPoll?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('progress display on a terminal', () => {
  const dir = makeTempDir('cli-progress');
  const dbPath = join(dir.path, 'runs.db');
  const store = `sqlite:${dbPath}`;
  let runId: string;
  beforeAll(async () => {
    const db = new SqliteRunStore(dbPath);
    runId = (await runner.complete(PROMPT, { store: db })).runId;
    await db.close();
  });
  afterAll(() => dir.cleanup());

  it('runs tail draws a status line while it waits, erased before each printed line and at the end', async () => {
    let polls = 0;
    const decideOnThirdPoll = async () => {
      if (++polls !== 3) return;
      const db = new SqliteRunStore(dbPath);
      await db.decideApproval(runId, 'call_delete', {
        approved: false,
        toolName: 'delete_database',
        argumentsSha256: canonicalArgumentsSha256({ name: 'staging' }),
        decidedBy: 'ops',
      });
      await db.setStatus(runId, 'cancelled');
      await db.close();
    };
    const tty = await cli(['runs', 'tail', runId, '--store', store], dir.path, true, decideOnThirdPoll);
    expect(tty.code).toBe(1);
    expect(tty.stderr).toContain(
      `${ERASE}waiting on ${runId}: awaiting_approval, 1 step(s), 1 call(s) (0 running), 1 approval(s) pending - 0 s`,
    );
    expect(tty.stderr.endsWith(ERASE)).toBe(true);
    expect(tty.stdout).not.toContain('\x1b');
    expect(tty.stdout).toContain('[status] cancelled');
  });

  it('never draws with --json, without a terminal, or when a document goes to stdout', async () => {
    const json = await cli(['runs', 'tail', runId, '--store', store, '--json'], dir.path, true);
    expect(json.stderr).toBe('');
    for (const line of json.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    const notTty = await cli(['export', runId, '--store', store, '--html', 'run.html'], dir.path, false);
    expect(notTty.stderr).toBe('');
    const toStdout = await cli(['export', runId, '--store', store, '--json', '-'], dir.path, true);
    expect(toStdout.stderr).not.toContain('\x1b');
    expect(JSON.parse(toStdout.stdout).runId).toBe(runId);
  });

  it('export and resume show their stage on a terminal and erase it', async () => {
    const exported = await cli(['export', runId, '--store', store, '--html', 'run.html'], dir.path, true);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`${ERASE}export ${runId}: rendering the timeline of 1 call(s)`);
    expect(exported.stderr.endsWith(ERASE)).toBe(true);

    const db = new SqliteRunStore(dbPath);
    const second = (await runner.complete(PROMPT, { store: db })).runId;
    await db.decideApproval(second, 'call_delete', {
      approved: true,
      toolName: 'delete_database',
      argumentsSha256: canonicalArgumentsSha256({ name: 'staging' }),
      decidedBy: 'ops',
    });
    await db.close();
    const resumed = await cli(['resume', second, '--agent', AGENT, '--store', store], dir.path, true);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${ERASE}resuming ${second}: delete_database running (attempt 1)`);
    expect(resumed.stderr.endsWith(ERASE)).toBe(true);
    const quiet = await cli(['resume', second, '--agent', AGENT, '--store', store, '--json'], dir.path, true);
    expect(quiet.stderr).not.toContain('\x1b');
  }, 60_000);
});
