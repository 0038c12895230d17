import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { LlmAgentRunner } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../../runner/support';
import { MessagesApiServer, messageReply, startMessagesApiServer } from '../../support/messages-api-server';

const temp = makeTempDir('provider-content');
let server: MessagesApiServer;
beforeAll(async () => {
  server = await startMessagesApiServer();
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

const thinking = {
  type: 'thinking',
  thinking: 'The user wants the weather; call the tool.',
  signature: 'sig-EqQBCkYIARgCKkB',
};
const redacted = { type: 'redacted_thinking', data: 'opaque-redacted-bytes' };
const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Oslo' } };

/** A client on its own SDK instance: nothing of an earlier client's memory is shared, as in another process. */
const freshClient = (): AnthropicModelClient =>
  new AnthropicModelClient({ client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }) });

describe('provider-specific assistant content in a durable run', () => {
  it('is stored with the assistant message and sent back unchanged when the run is resumed by another client', async () => {
    const path = join(temp.path, 'runs.db');
    const provider = new FunctionProvider().add('weather', () => 'sunny', {}, { city: { type: 'string' } });
    server.enqueue(messageReply({ content: [thinking, redacted, toolUse], stop_reason: 'tool_use' }));
    const first = new SqliteRunStore(path);
    const stopped = await new LlmAgentRunner(freshClient(), provider).complete('Weather in Oslo?', {
      store: first,
      runId: 'r',
      maxSteps: 1,
    });
    expect(stopped.stopReason).toBe('max_steps');
    const stored = (await first.loadRun('r'))!.messages[1];
    expect(stored).toMatchObject({
      role: 'assistant',
      providerContent: { provider: 'anthropic', blocks: [thinking, redacted, toolUse] },
    });
    await first.close();

    server.enqueue(messageReply({ content: [{ type: 'text', text: 'Sunny in Oslo.' }], stop_reason: 'end_turn' }));
    const second = new SqliteRunStore(path);
    const resumed = await new LlmAgentRunner(freshClient(), provider).resume('r', { store: second, maxSteps: 2 });
    expect(resumed.text).toBe('Sunny in Oslo.');
    const sent = server.requests[server.requests.length - 1].body as {
      messages: { role: string; content: unknown[] }[];
    };
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [thinking, redacted, toolUse] });
    await second.close();
  });
});
