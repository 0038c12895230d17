import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalArgumentsSha256, parseAgentRunRecord } from '../../lib/durable';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { main as tour, scriptedTourModel } from '../../samples/06-agent-tour/main';
import { settingsBackend } from '../../samples/06-agent-tour/tour-tools';
import { makeTempDir } from '../durable/temp-dir';
import { runCli, spawnCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

const AGENT = join(__dirname, 'fixtures', 'approval-agent.ts');
const DELETE_HASH = canonicalArgumentsSha256({ name: 'staging' });

describe('wuwe command line', () => {
  const dir = makeTempDir('cli');
  const dbPath = join(dir.path, 'runs.db');
  const store = `sqlite:${dbPath}`;
  let tourRunId: string;
  let suspendedRunId: string;

  beforeAll(async () => {
    settingsBackend.attempts = 0;
    const db = new SqliteRunStore(dbPath);
    tourRunId = (await tour({ model: scriptedTourModel(), print: () => undefined, store: db })).result.runId;
    const suspended = await runner.complete(PROMPT, { store: db });
    suspendedRunId = suspended.runId;
    await db.close();
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('lists runs with status, creation time and steps, as a table and as JSON', async () => {
    const text = await runCli(['runs', 'list', '--store', store], dir.path);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^RUN\s+STATUS\s+CREATED\s+STEPS\s+CALLS\s+PENDING$/);
    expect(text.stdout).toMatch(new RegExp(`${tourRunId}\\s+completed\\s+\\S+\\s+4\\s+6\\s+0`));
    expect(text.stdout).toMatch(new RegExp(`${suspendedRunId}\\s+awaiting_approval\\s+\\S+\\s+1\\s+2\\s+1`));

    const json = await runCli(['runs', 'list', '--store', store, '--json', '--status', 'completed'], dir.path);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as { runId: string; status: string; steps: number }[];
    expect(rows.map((row) => [row.runId, row.status, row.steps])).toEqual([[tourRunId, 'completed', 4]]);
  });

  it('shows the demo run: messages, tool calls with outcomes, approvals and projections', async () => {
    const json = await runCli(['runs', 'show', tourRunId, '--store', store, '--json'], dir.path);
    expect(json.code).toBe(0);
    const view = JSON.parse(json.stdout);
    expect(view.messages).toMatchObject({ user: 1, assistant: 4, tool: 6 });
    const byTool = new Map<string, any>(view.toolCalls.map((call: any) => [call.toolName, call]));
    expect(byTool.get('get_weather')).toMatchObject({
      recorded: 'admitted',
      outcome: 'ok',
      arguments: { city: 'Tokyo' },
    });
    expect(byTool.get('update_setting')).toMatchObject({ recorded: 'admitted', attempts: 2, outcome: 'ok' });
    expect(byTool.get('build_report')).toMatchObject({ outcome: 'error', errorCode: 'timeout' });
    expect(byTool.get('delete_database')).toMatchObject({
      recorded: 'not_recorded',
      outcome: 'error',
      argumentsSha256: DELETE_HASH,
    });
    expect(view.approvals).toEqual([
      expect.objectContaining({
        toolName: 'delete_database',
        state: 'denied',
        decidedBy: 'demo policy',
        argumentsMatch: true,
      }),
    ]);
    expect(view.projections.find((projection: any) => projection.toolName === 'read_log')).toMatchObject({
      truncated: true,
    });

    const text = await runCli(['runs', 'show', tourRunId, '--store', store], dir.path);
    expect(text.stdout).toContain('status:   completed');
    expect(text.stdout).toMatch(/build_report\s+admitted\s+\d+\s+error timeout/);
    expect(text.stdout).toMatch(/delete_database\s+denied\s+demo policy/);
    expect(text.stdout).toMatch(/read_log\s+yes\s+\d+ -> \d+/);
  });

  it('exports a run as JSON that reads back as the stored record', async () => {
    const result = await runCli(['export', tourRunId, '--store', store, '--json', 'out/run.json'], dir.path);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toContain('cannot write');
    const ok = await runCli(['export', tourRunId, '--store', store, '--json', 'run.json'], dir.path);
    expect(ok.code).toBe(0);
    const exported = parseAgentRunRecord(JSON.parse(readFileSync(join(dir.path, 'run.json'), 'utf8')));
    const db = new SqliteRunStore(dbPath);
    expect(exported).toEqual(await db.loadRun(tourRunId));
    await db.close();
  });

  it('gives exit code 3 for an unknown run or store, 2 for a usage error, with one line and no stack', async () => {
    for (const argv of [
      ['runs', 'show', 'no-such-run', '--store', store],
      ['approvals', 'approve', 'no-such-run', 'call_1', '--store', store],
      ['approvals', 'approve', suspendedRunId, 'no-such-call', '--store', store],
      ['runs', 'list', '--store', `sqlite:${join(dir.path, 'missing.db')}`],
    ]) {
      const result = await runCli(argv, dir.path);
      expect({ argv, code: result.code }).toEqual({ argv, code: 3 });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^wuwe: /);
    }
    for (const argv of [
      ['runs', 'list', '--status', 'sleeping', '--store', store],
      ['runs', 'frobnicate'],
      ['runs', 'list', '--store', 'mysql://x'],
      ['resume', suspendedRunId],
    ]) {
      const result = await runCli(argv, dir.path);
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const json = await runCli(['runs', 'show', 'no-such-run', '--store', store, '--json'], dir.path);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'not_found', message: "no run 'no-such-run' in the store", exitCode: 3 },
    });
  });

  it('approves a suspended call from the command line, refusing a wrong hash, then resumes the run to completion', async () => {
    const listed = await runCli(['approvals', 'list', '--store', store, '--json'], dir.path);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        runId: suspendedRunId,
        callId: 'call_delete',
        toolName: 'delete_database',
        state: 'pending',
        arguments: { name: 'staging' },
        argumentsSha256: DELETE_HASH,
        argumentsMatch: true,
      }),
    ]);

    const wrongHash = canonicalArgumentsSha256({ name: 'production' });
    const refused = await runCli(
      ['approvals', 'approve', suspendedRunId, 'call_delete', '--store', store, '--arguments-sha256', wrongHash],
      dir.path,
    );
    expect(refused.code).toBe(4);
    expect(refused.stdout).toContain('tool:              delete_database');
    expect(refused.stdout).toContain('arguments:         {"name":"staging"}');
    expect(refused.stdout).toContain(`arguments SHA-256: ${DELETE_HASH}`);
    expect(refused.stderr).toContain('refused');
    const stillPending = await runCli(
      ['approvals', 'list', '--run', suspendedRunId, '--store', store, '--json'],
      dir.path,
    );
    expect(JSON.parse(stillPending.stdout)).toEqual([expect.objectContaining({ state: 'pending' })]);

    const early = await runCli(
      ['resume', suspendedRunId, '--agent', AGENT, '--store', store, '--json', '--quiet'],
      dir.path,
    );
    expect(early.code).toBe(0);
    expect(JSON.parse(early.stdout)).toMatchObject({ status: 'awaiting_approval' });

    const approved = await runCli(
      [
        'approvals',
        'approve',
        suspendedRunId,
        'call_delete',
        '--store',
        store,
        '--arguments-sha256',
        DELETE_HASH.toUpperCase(),
        '--by',
        'ops',
        '--reason',
        'staging is disposable',
      ],
      dir.path,
    );
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('approved: delete_database call_delete');
    expect(approved.stdout).toContain(`wuwe resume ${suspendedRunId}`);
    const reversed = await runCli(['approvals', 'deny', suspendedRunId, 'call_delete', '--store', store], dir.path);
    expect(reversed.code).toBe(4);
    expect(reversed.stderr).toContain('already approved by ops');

    const resumed = await spawnCli(['resume', suspendedRunId, '--agent', AGENT, '--store', store], dir.path);
    expect(resumed).toMatchObject({ code: 0 });
    expect(resumed.stdout).toContain(`run ${suspendedRunId}: completed (end_turn)`);
    expect(resumed.stdout).toContain('database staging deleted');
    expect(resumed.stderr).toContain('[tool] delete_database call_delete finished after 1 attempt(s): ok');

    const shown = JSON.parse(
      (await runCli(['runs', 'show', suspendedRunId, '--store', store, '--json'], dir.path)).stdout,
    );
    expect(shown.status).toBe('completed');
    expect(shown.toolCalls.find((call: any) => call.callId === 'call_delete')).toMatchObject({
      recorded: 'admitted',
      outcome: 'ok',
    });
    expect(shown.approvals).toEqual([
      expect.objectContaining({ state: 'approved', decidedBy: 'ops', reason: 'staging is disposable' }),
    ]);

    const again = await runCli(['resume', suspendedRunId, '--agent', AGENT, '--store', store], dir.path);
    expect(again.code).toBe(4);
    expect(again.stderr).toBe(`wuwe: run '${suspendedRunId}' is completed and cannot be resumed\n`);
  }, 60_000);

  it('runs as a real process: exit code 3 and one line for an unknown run', async () => {
    const result = await spawnCli(['runs', 'show', 'no-such-run', '--store', store], dir.path);
    expect(result).toMatchObject({ code: 3, stdout: '', stderr: "wuwe: no run 'no-such-run' in the store\n" });
  }, 60_000);

  it('tails a run until it reaches a final status, and gives up at --timeout', async () => {
    const done = await runCli(['runs', 'tail', tourRunId, '--store', store], dir.path);
    expect(done.code).toBe(0);
    expect(done.stdout.split('\n')[0]).toMatch(/^\[user\] You operate our staging environment/);
    expect(done.stdout).toContain('[approval] delete_database call_3_0 denied by demo policy');
    expect(done.stdout.trimEnd().split('\n').pop()).toBe('[status] completed');

    const db = new SqliteRunStore(dbPath);
    await db.createRun({ runId: 'tail-run', messages: [{ role: 'user', content: 'hello' }] });
    const tail = runCli(['runs', 'tail', 'tail-run', '--store', store, '--interval', '5', '--json'], dir.path);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await db.appendMessages('tail-run', [{ role: 'assistant', content: 'working on it', toolCalls: [] }]);
    await db.setStatus('tail-run', 'failed');
    const followed = await tail;
    expect(followed.code).toBe(1);
    expect(
      followed.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; text: string }),
    ).toEqual([
      { runId: 'tail-run', type: 'message', text: '[user] hello' },
      { runId: 'tail-run', type: 'status', text: '[status] running' },
      { runId: 'tail-run', type: 'message', text: '[assistant] working on it' },
      { runId: 'tail-run', type: 'status', text: '[status] failed' },
    ]);

    await db.createRun({ runId: 'stuck-run' });
    await db.close();
    const stuck = await runCli(
      ['runs', 'tail', 'stuck-run', '--store', store, '--interval', '5', '--timeout', '50'],
      dir.path,
    );
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toBe("wuwe: run 'stuck-run' is still running after 50 ms\n");
  });

  it('resumes with a runner exported by an ES module, in a real process', async () => {
    writeFileSync(
      join(dir.path, 'esm-agent.mjs'),
      [
        'export const runner = {',
        '  async resume(runId, options) {',
        "    await options.store.appendMessages(runId, [{ role: 'assistant', content: 'resumed by an ES module', toolCalls: [] }]);",
        "    await options.store.setStatus(runId, 'completed');",
        "    return { runId, text: 'resumed by an ES module', messages: [], toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, stopReason: 'end_turn', steps: 1 };",
        '  },',
        '};',
      ].join('\n'),
    );
    const db = new SqliteRunStore(dbPath);
    await db.createRun({ runId: 'esm-run', status: 'awaiting_approval' });
    await db.createRun({ runId: 'agentless-run', status: 'awaiting_approval' });
    await db.close();
    const result = await spawnCli(
      ['resume', 'esm-run', '--agent', './esm-agent.mjs', '--store', store, '--json'],
      dir.path,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      runId: 'esm-run',
      status: 'completed',
      stopReason: 'end_turn',
      steps: 1,
      text: 'resumed by an ES module',
    });
    const again = await runCli(['resume', 'esm-run', '--agent', './esm-agent.mjs', '--store', store], dir.path);
    expect(again.code).toBe(4);
    const missing = await runCli(['resume', 'agentless-run', '--agent', './nowhere.js', '--store', store], dir.path);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      `wuwe: cannot find agent module './nowhere.js' (${join(dir.path, 'nowhere.js')} does not exist)\n`,
    );
    writeFileSync(join(dir.path, 'not-an-agent.js'), 'module.exports = { answer: 42 };\n');
    const notAgent = await runCli(
      ['resume', 'agentless-run', '--agent', './not-an-agent.js', '--store', store],
      dir.path,
    );
    expect(notAgent.code).toBe(2);
    expect(notAgent.stderr).toContain('exports no runner');
  }, 60_000);

  it('exports a self-contained HTML page of a run, escaping everything the run holds', async () => {
    const ok = await runCli(
      ['export', tourRunId, '--store', store, '--html', 'run.html', '--json', 'both.json'],
      dir.path,
    );
    expect(ok.code).toBe(0);
    const html = readFileSync(join(dir.path, 'run.html'), 'utf8');
    for (const tool of [
      'get_weather',
      'update_setting',
      'build_report',
      'read_log',
      'reindex_search',
      'delete_database',
    ])
      expect(html).toContain(`<b>${tool}</b>`);
    expect(html.match(/<b>model step \d+<\/b>/g)).toHaveLength(4);
    expect(html).toMatch(/data-lane="approval">.*denied by demo policy at /);
    expect(html).toMatch(/data-lane="truncation">.*truncated: \d+ -&gt; \d+ bytes/);
    expect(html.match(/<summary>full admitted outcome/g)).toHaveLength(5);
    expect(html).toContain('no event journal given');
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
    expect(readFileSync(join(dir.path, 'both.json'), 'utf8')).toContain(`"runId": "${tourRunId}"`);

    const db = new SqliteRunStore(dbPath);
    await db.createRun({
      runId: 'hostile-run',
      messages: [
        { role: 'user', content: '<script>alert(1)</script>' },
        {
          role: 'assistant',
          content: '<img src=x onerror=alert(1)>',
          toolCalls: [{ id: '"><b>', name: '<i>tool</i>', arguments: { q: '</pre><script>' } }],
        },
      ],
    });
    await db.close();
    const hostile = await runCli(['export', 'hostile-run', '--store', store, '--html', '-'], dir.path);
    expect(hostile.code).toBe(0);
    expect(hostile.stdout).not.toMatch(/<script|<img|<i>tool|"><b><\/span>/);
    expect(hostile.stdout).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
