import 'reflect-metadata';
import { join } from 'node:path';
import { Contract, Field, LlmAgentEvent, LlmAgentRunner, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { RunEventJournal } from '../../lib/runner';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { renderRunHtml } from '../../lib/cli/html-timeline';
import { makeTempDir } from '../durable/temp-dir';
import { runCli } from './cli-harness';

@Tool({ description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent', approval: 'always' })
class GetWeather {
  @Field() city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

/** A model that reuses `call_0` in turn 1 (Oslo) and turn 2 (Rome), as OpenAI-compatible servers do. */
const script = (): ScriptedModelClient =>
  new ScriptedModelClient([
    { toolCalls: [{ id: 'call_0', name: 'GetWeather', arguments: '{"city":"Oslo"}' }] },
    { toolCalls: [{ id: 'call_0', name: 'GetWeather', arguments: '{"city":"Rome"}' }] },
    { text: 'Oslo and Rome are 22 degrees.' },
  ]);

type ToolEvent = Extract<LlmAgentEvent, { callId: string }>;

describe('a call id reused in a later turn', () => {
  const dir = makeTempDir('reused-call-ids');
  const dbPath = join(dir.path, 'runs.db');
  const store = `sqlite:${dbPath}`;
  const runId = 'reused-ids';
  const journal = new RunEventJournal();

  beforeAll(async () => {
    const db = new SqliteRunStore(dbPath);
    try {
      const result = await new LlmAgentRunner(script(), new ToolRegistry([GetWeather])).complete(
        'Weather in Oslo and Rome?',
        {
          store: db,
          runId,
          onEvent: journal.onEvent,
          approvalHandler: (request) => ({ approved: true, reason: `turn ${request.turn}` }),
        },
      );
      expect(result.toolCalls.map((call) => [call.turn, call.callId])).toEqual([
        [1, 'call_0'],
        [2, 'call_0'],
      ]);
    } finally {
      await db.close();
    }
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('carries the turn on every tool-call event, so the journal keeps the two calls apart', () => {
    const toolEvents = journal.entries
      .map((entry) => entry.event)
      .filter((event): event is ToolEvent => 'callId' in event);
    expect(toolEvents.length).toBeGreaterThan(0);
    for (const event of toolEvents) expect(typeof event.turn).toBe('number');
    const pick = (type: string): [number, string][] =>
      toolEvents.filter((event) => event.type === type).map((event) => [event.turn, event.callId]);
    expect(pick('tool_call_started')).toEqual([
      [1, 'call_0'],
      [2, 'call_0'],
    ]);
    expect(pick('tool_call_finished')).toEqual([
      [1, 'call_0'],
      [2, 'call_0'],
    ]);
    const reread = RunEventJournal.parse(journal.toJsonLines()).map((entry) => entry.event);
    expect(
      reread
        .filter((event) => event.type === 'tool_call_started')
        .map((event) => ('turn' in event ? event.turn : undefined)),
    ).toEqual([1, 2]);
  });

  it('lists both calls with their turns in `runs show --json` and as a TURN column in text', async () => {
    const json = await runCli(['runs', 'show', runId, '--store', store, '--json'], dir.path);
    expect(json.code).toBe(0);
    const view = JSON.parse(json.stdout) as {
      toolCalls: { turn: number; callId: string; arguments: unknown; toolMessage?: string }[];
    };
    expect(view.toolCalls.map((call) => [call.turn, call.callId, call.arguments])).toEqual([
      [1, 'call_0', { city: 'Oslo' }],
      [2, 'call_0', { city: 'Rome' }],
    ]);
    expect(view.toolCalls[0].toolMessage).toContain('Oslo');
    expect(view.toolCalls[1].toolMessage).toContain('Rome');
    expect(
      (JSON.parse(json.stdout) as { approvals: { turn: number; callId: string; reason: string }[] }).approvals.map(
        (approval) => [approval.turn, approval.callId, approval.reason],
      ),
    ).toEqual([
      [1, 'call_0', 'turn 1'],
      [2, 'call_0', 'turn 2'],
    ]);
    const approvals = await runCli(['approvals', 'list', '--run', runId, '--all', '--store', store], dir.path);
    expect(approvals.stdout).toMatch(/RUN\s+TURN\s+CALL/);
    expect(approvals.stdout).toMatch(/reused-ids\s+1\s+call_0.*Oslo/);
    expect(approvals.stdout).toMatch(/reused-ids\s+2\s+call_0.*Rome/);

    const text = await runCli(['runs', 'show', runId, '--store', store], dir.path);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('tool calls (2):');
    expect(text.stdout).toMatch(/TURN\s+CALL\s+TOOL/);
    expect(text.stdout).toMatch(/1\s+call_0\s+GetWeather.*Oslo/);
    expect(text.stdout).toMatch(/2\s+call_0\s+GetWeather.*Rome/);
  });

  it('shows both calls in the HTML export, each with its own arguments and lanes', async () => {
    const db = new SqliteRunStore(dbPath);
    try {
      const record = await db.loadRun(runId);
      if (record === undefined) throw new Error('run not stored');
      const html = renderRunHtml(record, { journal: journal.entries });
      const calls = html.match(/<div class="call [^"]*" data-call="[^"]*"[^>]*>/g) ?? [];
      expect(calls).toHaveLength(2);
      expect(html).toContain('data-turn="1"');
      expect(html).toContain('data-turn="2"');
      const blocks = html
        .split('<div class="call ')
        .slice(1)
        .map((block) => block.split('<div class="step">')[0]);
      expect(blocks[0]).toContain('Oslo');
      expect(blocks[0]).not.toContain('Rome');
      expect(blocks[1]).toContain('Rome');
      expect(blocks[1]).not.toContain('Oslo');
      expect(blocks[0].match(/title="attempt 1: ok"/g)).toHaveLength(1);
      expect(blocks[1].match(/title="attempt 1: ok"/g)).toHaveLength(1);

      // A journal written before events carried a turn: its events go to the earliest call with their id.
      const untimed = journal.entries.map((entry) => ({
        ...entry,
        event: { ...entry.event, turn: undefined } as unknown as LlmAgentEvent,
      }));
      const old = renderRunHtml(record, { journal: untimed }).split('<div class="call ').slice(1);
      expect(old).toHaveLength(2);
      expect(old[0]).toContain('Oslo');
      expect(old[1]).toContain('Rome');
      expect(old[0]).toContain('title="attempt 1: ok"');
      expect(old[1]).toContain('1 attempt(s), admitted, ok');
    } finally {
      await db.close();
    }
  });

  it('carries the turn on the tool-call events of runner.stream()', async () => {
    const turns: [string, number, string][] = [];
    const stream = new LlmAgentRunner(script(), new ToolRegistry([GetWeather])).stream('Weather in Oslo and Rome?', {
      approvalHandler: () => ({ approved: true }),
    });
    for await (const event of stream)
      if (event.type === 'tool_call_started' || event.type === 'tool_call_finished')
        turns.push([event.type, event.turn, event.callId]);
    expect(turns).toEqual([
      ['tool_call_started', 1, 'call_0'],
      ['tool_call_finished', 1, 'call_0'],
      ['tool_call_started', 2, 'call_0'],
      ['tool_call_finished', 2, 'call_0'],
    ]);
  });
});
