import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ChatMessage, LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { SqliteMemory } from '../../lib/modules/memory';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('conversations');
afterAll(() => temp.cleanup());

const PNG = 'iVBORw0KGgo=';

function lookupProvider(): FunctionProvider {
  return new FunctionProvider().add('lookup', () => ({ status: 'shipped' }), {}, { order: { type: 'string' } });
}

describe('complete() and stream() with a message list', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'Hi, I am Ada.' },
    { role: 'assistant', content: 'Hello Ada!', toolCalls: [] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    },
  ];

  it("sends the whole list to the model and records it as the run's start", async () => {
    const model = new ScriptedModelClient([{ text: 'A tiny PNG.' }]);
    const result = await new LlmAgentRunner(model, lookupProvider()).complete(history);
    expect(model.requests[0].messages).toEqual(history);
    expect(result.messages).toEqual([...history, { role: 'assistant', content: 'A tiny PNG.', toolCalls: [] }]);
  });

  it('streams a run that starts from a list', async () => {
    const model = new ScriptedModelClient([{ text: 'A tiny PNG.' }]);
    const stream = new LlmAgentRunner(model, lookupProvider()).stream(history);
    for await (const _event of stream) void _event;
    expect((await stream.result).messages.slice(0, 3)).toEqual(history);
  });

  it.each([
    ['an empty list', [], 'non-empty'],
    [
      'a list that does not end with a user message',
      [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b', toolCalls: [] },
      ],
      'last message must be a user message',
    ],
    ['an unknown role', [{ role: 'system', content: 'x' }], 'unknown role'],
    [
      'an image without data',
      [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png' }] }],
      'part 0: an inline image needs base64 `data`',
    ],
    ['an empty part list', [{ role: 'user', content: [] }], 'non-empty list of parts'],
    [
      'a tool message without its call id',
      [
        { role: 'tool', toolName: 't', content: 'x', isError: false },
        { role: 'user', content: 'go' },
      ],
      'toolCallId',
    ],
  ])('refuses %s (invalid_input) before anything runs', async (_name, input, message) => {
    const model = new ScriptedModelClient([{ text: 'never' }]);
    const runner = new LlmAgentRunner(model, lookupProvider());
    await expect(runner.complete(input as ChatMessage[])).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(message),
    });
    expect(() => runner.stream(input as ChatMessage[])).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(model.requests).toHaveLength(0);
  });
});

describe('LlmAgentRunOptions.continueFrom', () => {
  it('continues a conversation another process stored (SQLite store and SqliteMemory)', async () => {
    const dbPath = join(temp.path, 'runs.db');
    const memoryPath = join(temp.path, 'memory.db');
    await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'conversation-worker.ts'), dbPath, memoryPath, 'first'],
      { cwd: join(__dirname, '../..') },
    );

    const store = new SqliteRunStore(dbPath);
    const stored = (await store.loadRun('first'))!.messages;
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const model = new ScriptedModelClient([{ text: 'It left the warehouse on Monday.' }]);
    const runner = new LlmAgentRunner(model, lookupProvider());
    const result = await runner.complete('When did it ship?', { store, runId: 'second', continueFrom: 'first' });
    expect(model.requests[0].messages).toEqual([...stored, { role: 'user', content: 'When did it ship?' }]);
    expect(result.messages).toHaveLength(6);
    const second = (await store.loadRun('second'))!;
    expect(second.status).toBe('completed');
    expect(second.messages).toEqual(result.messages);
    expect((await store.loadRun('first'))!.messages).toEqual(stored);

    const memory = new SqliteMemory(memoryPath);
    const fromMemory = new ScriptedModelClient([{ text: 'Monday.' }]);
    await new LlmAgentRunner(fromMemory, lookupProvider()).complete('When?', { memory, continueFrom: 'first' });
    expect(fromMemory.requests[0].messages.slice(0, 4)).toEqual(stored);
    memory.close();
    await store.close();
  }, 60_000);

  it('refuses an unknown conversation, a conversation with unanswered calls, and a run without a store or memory', async () => {
    const store = new SqliteRunStore(join(temp.path, 'refusals.db'));
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { order: 'A' } }] }]);
    const suspended = await new LlmAgentRunner(
      model,
      new FunctionProvider().add('lookup', () => 'x', { sideEffect: 'destructive' }, { order: { type: 'string' } }),
    ).complete('go', { store, runId: 'open' });
    expect(suspended.stopReason).toBe('awaiting_approval');
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), lookupProvider());
    await expect(runner.complete('next', { store, continueFrom: 'missing' })).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    await expect(runner.complete('next', { store, continueFrom: 'open' })).rejects.toMatchObject({
      code: 'run_conflict',
      message: expect.stringContaining('c1'),
    });
    await expect(runner.complete('next', { continueFrom: 'open' })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    await store.close();
  });
});

describe('turns of a run that starts from an earlier conversation', () => {
  it('numbers its calls after the assistant messages it carries over, so an approval decided for them resumes', async () => {
    const store = new SqliteRunStore(join(temp.path, 'turns.db'));
    const shipped: string[] = [];
    const provider = new FunctionProvider().add(
      'ship',
      (invocation) => {
        shipped.push(JSON.stringify(invocation.arguments.order));
        return 'shipped';
      },
      { sideEffect: 'write', idempotency: 'non_idempotent', approval: 'always' },
      { order: { type: 'string' } },
    );
    const history: ChatMessage[] = [
      { role: 'user', content: 'Ship order 1.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'ship', arguments: { order: '1' } }] },
      { role: 'tool', toolCallId: 'call_0', toolName: 'ship', content: 'shipped', isError: false },
      { role: 'assistant', content: 'Order 1 shipped.', toolCalls: [] },
      { role: 'user', content: 'Now ship order 2.' },
    ];
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_0', name: 'ship', arguments: { order: '2' } }] },
      { text: 'Order 2 shipped.' },
    ]);
    const runner = new LlmAgentRunner(model, provider);
    const suspended = await runner.complete(history, { store, runId: 'carried' });
    expect(suspended.stopReason).toBe('awaiting_approval');
    const record = (await store.loadRun('carried'))!;
    const assistantTurn = record.messages.filter((message) => message.role === 'assistant').length;
    expect(assistantTurn).toBe(3);
    expect(record.approvals.map((approval) => [approval.callId, approval.turn])).toEqual([['call_0', 3]]);
    expect(suspended.toolCalls.map((call) => call.turn)).toEqual([3]);

    await store.decideApproval(
      'carried',
      'call_0',
      { approved: true, toolName: 'ship', argumentsSha256: record.approvals[0].argumentsSha256 },
      { turn: 3 },
    );
    const resumed = await runner.resume('carried', { store });
    expect(resumed.stopReason).toBe('end_turn');
    expect(shipped).toEqual(['"2"']);
    await store.close();
  });
});

describe('streamed turns of a run that starts from an earlier conversation', () => {
  it('streams its calls under the turn they are recorded with', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'Look up order 1.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { order: '1' } }] },
      { role: 'tool', toolCallId: 'call_0', toolName: 'lookup', content: 'shipped', isError: false },
      { role: 'assistant', content: 'Shipped.', toolCalls: [] },
      { role: 'user', content: 'And order 2?' },
    ];
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { order: '2' } }] },
      { text: 'Shipped too.' },
    ]);
    const stream = new LlmAgentRunner(model, lookupProvider()).stream(history);
    const turns: [string, number][] = [];
    for await (const event of stream) if ('turn' in event) turns.push([event.type, event.turn]);
    expect(new Set(turns.map(([, turn]) => turn))).toEqual(new Set([3]));
    expect(turns.map(([type]) => type)).toEqual(expect.arrayContaining(['tool_call_started', 'tool_call_finished']));
    expect((await stream.result).toolCalls.map((call) => call.turn)).toEqual([3]);
  });
});
