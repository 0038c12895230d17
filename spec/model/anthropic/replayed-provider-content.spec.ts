import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { ChatMessage, LlmAgentRunner } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { createRecordedRun } from '../../durable/recorded-run';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../../runner/support';
import { MessagesApiServer, messageReply, startMessagesApiServer } from '../../support/messages-api-server';

const temp = makeTempDir('replayed-content');
let server: MessagesApiServer;
beforeAll(async () => {
  server = await startMessagesApiServer();
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

const thinking = { type: 'thinking', thinking: 'Check the weather.', signature: 'sig-EqQBCkYIARgCKkB' };
const client = (): AnthropicModelClient =>
  new AnthropicModelClient({ client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }) });
const provider = () => new FunctionProvider().add('weather', () => 'sunny', {}, { city: { type: 'string' } });
const lastBody = () =>
  server.requests[server.requests.length - 1].body as { messages: { role: string; content: unknown }[] };

/** An assistant turn whose stored Anthropic blocks say something other than its text and calls. */
function mismatched(blocks: unknown[]): ChatMessage {
  return {
    role: 'assistant',
    content: 'Let me look.',
    toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: { city: 'Oslo' } }],
    providerContent: { provider: 'anthropic', blocks: blocks as never },
  };
}
const answered: ChatMessage = {
  role: 'tool',
  toolCallId: 'toolu_1',
  toolName: 'weather',
  content: 'sunny',
  isError: false,
};

describe('provider content replayed to the Messages API (real SDK client, local server)', () => {
  it.each([
    [
      'text that differs from the message',
      [
        thinking,
        { type: 'text', text: 'I will wire the money.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
      ],
    ],
    [
      'a tool_use with other input',
      [
        thinking,
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
      ],
    ],
    [
      'a tool_use of another tool',
      [
        thinking,
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'transfer', input: { city: 'Oslo' } },
      ],
    ],
  ])(
    'of a model response whose blocks carry %s is not sent: the turn is rebuilt from its own text and calls',
    async (_name, blocks) => {
      const store = new SqliteRunStore(join(temp.path, `mismatch-${server.requests.length}.db`));
      await createRecordedRun(store, {
        runId: 'r',
        status: 'failed',
        messages: [{ role: 'user', content: 'Weather in Oslo?' }, mismatched(blocks), answered],
      });
      server.enqueue(messageReply({ content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn' }));
      await new LlmAgentRunner(client(), provider()).resume('r', { store });
      expect(lastBody().messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
        ],
      });
      await store.close();
    },
  );

  it('of a model response that matches its message is sent unchanged, thinking included', async () => {
    const blocks = [
      thinking,
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
    ];
    const store = new SqliteRunStore(join(temp.path, 'match.db'));
    await createRecordedRun(store, {
      runId: 'r',
      status: 'failed',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }, mismatched(blocks), answered],
    });
    server.enqueue(messageReply({ content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn' }));
    await new LlmAgentRunner(client(), provider()).resume('r', { store });
    expect(lastBody().messages[1]).toEqual({ role: 'assistant', content: blocks });
    await store.close();
  });

  it('written by saveMessages() (not a model response) is never sent, even when it matches', async () => {
    const blocks = [
      thinking,
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
    ];
    const store = new SqliteRunStore(join(temp.path, 'saved.db'));
    await store.createRun({ runId: 'r', status: 'failed' });
    await store.saveMessages('r', [{ role: 'user', content: 'Weather in Oslo?' }, mismatched(blocks), answered]);
    server.enqueue(messageReply({ content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn' }));
    await new LlmAgentRunner(client(), provider()).resume('r', { store });
    expect(JSON.stringify(lastBody().messages)).not.toContain('sig-EqQBCkYIARgCKkB');
    await store.close();
  });

  it('of a continued conversation is sent only for the model responses of the stored run (continueFrom)', async () => {
    const blocks = [
      thinking,
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
    ];
    const store = new SqliteRunStore(join(temp.path, 'continued.db'));
    await createRecordedRun(store, {
      runId: 'own',
      status: 'completed',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }, mismatched(blocks), answered],
    });
    await store.createRun({ runId: 'saved', status: 'completed' });
    await store.saveMessages('saved', [{ role: 'user', content: 'Weather in Oslo?' }, mismatched(blocks), answered]);
    server.enqueue(messageReply({ content: [{ type: 'text', text: 'Still sunny.' }], stop_reason: 'end_turn' }));
    await new LlmAgentRunner(client(), provider()).complete('And tomorrow?', { store, continueFrom: 'own' });
    expect(lastBody().messages[1]).toEqual({ role: 'assistant', content: blocks });
    server.enqueue(messageReply({ content: [{ type: 'text', text: 'Still sunny.' }], stop_reason: 'end_turn' }));
    await new LlmAgentRunner(client(), provider()).complete('And tomorrow?', { store, continueFrom: 'saved' });
    expect(JSON.stringify(lastBody().messages)).not.toContain('sig-EqQBCkYIARgCKkB');
    await store.close();
  });
});
