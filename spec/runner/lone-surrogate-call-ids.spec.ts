import { join } from 'node:path';
import { LlmAgentEvent, LlmAgentRunner, MemoryRunStore, RunStore, ScriptedModelClient } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const dir = makeTempDir('lone-surrogate-calls');
afterAll(() => dir.cleanup());
let counter = 0;

const stores: [string, () => RunStore | undefined][] = [
  ['no store', () => undefined],
  ['MemoryRunStore', () => new MemoryRunStore()],
  ['SqliteRunStore', () => new SqliteRunStore({ path: join(dir.path, `db-${++counter}`, 'runs.db') })],
];

function writeThing() {
  return new FunctionProvider().add(
    'WriteThing',
    (invocation) => `wrote ${invocation.arguments.x as string}`,
    { sideEffect: 'write', idempotency: 'non_idempotent' },
    { x: { type: 'string' } },
  );
}

function errorOf(content: string) {
  const parsed = JSON.parse(content);
  expect(parsed.ok).toBe(false);
  return parsed.error as { code: string; category: string; message: string; retryable: boolean };
}

describe.each(stores)('model tool calls whose id is not well-formed UTF-16 (%s)', (_name, makeStore) => {
  let store: RunStore | undefined;
  beforeEach(() => {
    store = makeStore();
  });
  afterEach(async () => {
    await store?.close();
  });

  it.each([
    ['the same arguments', '{"x":"a"}', '{"x":"a"}'],
    ['different arguments', '{"x":"a"}', '{"x":"b"}'],
  ])('with %s: both calls are refused with a Tool message, nothing runs, the run completes', async (_, a, b) => {
    const tools = writeThing();
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: '\ud800', name: 'WriteThing', arguments: a },
          { id: '\udfff', name: 'WriteThing', arguments: b },
        ],
      },
      { text: 'done' },
    ]);
    const events: LlmAgentEvent[] = [];
    const runId = `lone-${counter}-${b.length}-${a === b ? 'same' : 'other'}`;
    const result = await new LlmAgentRunner(model, tools).complete('hi', {
      ...(store === undefined ? {} : { store, runId }),
      onEvent: (event) => events.push(event),
    });
    expect(tools.calls).toHaveLength(0);
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls.map((call) => call.callId)).toEqual(['\ud800', '\udfff']);
    for (const call of result.toolCalls) {
      expect(call.attempts).toBe(0);
      expect(errorOf(call.content)).toMatchObject({
        code: 'invalid_tool_call',
        category: 'validation',
        retryable: false,
        message: expect.stringContaining('lone surrogate'),
      });
    }
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.role === 'tool' && message.toolCallId)).toEqual(['\ud800', '\udfff']);
    expect(events.filter((event) => event.type === 'tool_call_refused')).toHaveLength(2);
    if (store !== undefined) {
      const record = (await store.loadRun(runId))!;
      expect(record.status).toBe('completed');
      expect(record.toolCalls).toEqual([]);
    }
  });

  it('a well-formed call of the same turn still runs', async () => {
    const tools = writeThing();
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'ok\ud83d\ude00', name: 'WriteThing', arguments: '{"x":"a"}' },
          { id: 'bad\ud800', name: 'WriteThing', arguments: '{"x":"b"}' },
        ],
      },
      { text: 'done' },
    ]);
    const runId = `mixed-${counter}`;
    const result = await new LlmAgentRunner(model, tools).complete('hi', store === undefined ? {} : { store, runId });
    expect(tools.calls).toHaveLength(1);
    expect(result.toolCalls[0].outcome).toEqual({ ok: true, text: 'wrote a' });
    expect(errorOf(result.toolCalls[1].content).code).toBe('invalid_tool_call');
    if (store !== undefined)
      expect((await store.loadRun(runId))!.toolCalls.map((call) => call.callId)).toEqual(['ok\ud83d\ude00']);
  });
});
