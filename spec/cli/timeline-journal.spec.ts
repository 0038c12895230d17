import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import { RunEventJournal, RunEventJournalError } from '../../lib/runner';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { renderRunHtml } from '../../lib/cli/html-timeline';
import { makeTempDir } from '../durable/temp-dir';
import { runCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

const AGENT = join(__dirname, 'fixtures', 'approval-agent.ts');

describe('RunEventJournal', () => {
  it('records events with their times, as JSON lines that parse back', () => {
    let now = 1000;
    const journal = new RunEventJournal({ now: () => now++ });
    journal.onEvent({ type: 'run_started', runId: 'r' });
    journal.onEvent({
      type: 'tool_heartbeat',
      runId: 'r',
      callId: 'c',
      turn: 1,
      toolName: 't',
      attempt: 1,
      progress: { fraction: 0.5 },
    });
    expect(RunEventJournal.parse(`${journal.toJsonLines()}\n`)).toEqual([
      { atMs: 1000, event: { type: 'run_started', runId: 'r' } },
      {
        atMs: 1001,
        event: {
          type: 'tool_heartbeat',
          runId: 'r',
          callId: 'c',
          turn: 1,
          toolName: 't',
          attempt: 1,
          progress: { fraction: 0.5 },
        },
      },
    ]);
  });

  it('refuses a line that is not an entry, naming it', () => {
    expect(() => RunEventJournal.parse('{"atMs":1,"event":{"type":"run_started"}}\nnot json')).toThrow(
      /line 2 of the event journal is not JSON/,
    );
    expect(() => RunEventJournal.parse('{"atMs":"soon","event":{"type":"x"}}')).toThrow(RunEventJournalError);
  });

  it('draws lanes only for the run it belongs to, and the timed lanes only from a journal', async () => {
    const store = new SqliteRunStore(':memory:');
    const journal = new RunEventJournal();
    const result = await runner.complete(PROMPT, { store, onEvent: journal.onEvent });
    const record = (await store.loadRun(result.runId))!;
    const withJournal = renderRunHtml(record, { journal: journal.entries });
    expect(withJournal).toMatch(/data-lane="attempts">.*attempt 1: ok/);
    expect(withJournal).not.toContain('no event journal given');
    const foreign = journal.entries.map((entry) => ({ ...entry, event: { ...entry.event, runId: 'another-run' } }));
    expect(renderRunHtml(record, { journal: foreign })).not.toContain('attempt 1: ok');
    expect(renderRunHtml(record)).toMatch(/data-lane="attempts">.*1 attempt\(s\), admitted, ok/);
    await store.close();
  });
});

describe('wuwe resume --events and export --events', () => {
  const dir = makeTempDir('cli-journal');
  afterAll(() => dir.cleanup());

  it('journals a resumed run and draws it; refuses a missing or malformed journal', async () => {
    const dbPath = join(dir.path, 'runs.db');
    const store = `sqlite:${dbPath}`;
    const db = new SqliteRunStore(dbPath);
    const suspended = await runner.complete(PROMPT, { store: db });
    await db.decideApproval(suspended.runId, 'call_delete', {
      approved: true,
      toolName: 'delete_database',
      argumentsSha256: canonicalArgumentsSha256({ name: 'staging' }),
      decidedBy: 'ops',
    });
    await db.close();

    const resumed = await runCli(
      ['resume', suspended.runId, '--agent', AGENT, '--store', store, '--events', 'events.jsonl', '--quiet'],
      dir.path,
    );
    expect(resumed.code).toBe(0);
    const entries = RunEventJournal.parse(readFileSync(join(dir.path, 'events.jsonl'), 'utf8'));
    expect(
      entries.some((entry) => entry.event.type === 'tool_call_finished' && entry.event.toolName === 'delete_database'),
    ).toBe(true);

    const exported = await runCli(
      ['export', suspended.runId, '--store', store, '--html', '-', '--events', 'events.jsonl'],
      dir.path,
    );
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/data-lane="approval">.*approved by ops at /);
    expect(exported.stdout).toMatch(/data-lane="attempts">.*attempt 1: ok/);

    expect(
      (
        await runCli(
          ['export', suspended.runId, '--store', store, '--html', '-', '--events', 'missing.jsonl'],
          dir.path,
        )
      ).code,
    ).toBe(3);
    writeFileSync(join(dir.path, 'bad.jsonl'), 'nope\n');
    const bad = await runCli(
      ['export', suspended.runId, '--store', store, '--html', '-', '--events', 'bad.jsonl'],
      dir.path,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1 of the event journal is not JSON/);
    expect(
      (await runCli(['export', suspended.runId, '--store', store, '--json', '-', '--events', 'events.jsonl'], dir.path))
        .code,
    ).toBe(2);
  }, 60_000);
});
