import OpenAI from 'openai';
import { join } from 'node:path';
import { LlmAgentRunner } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { OpenAIModelClient } from '../../../lib/model/openai';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../../runner/support';
import { responsesBody, responsesReply } from '../../support/openai-api-fixtures';
import { OpenAIApiServer, startOpenAIApiServer } from '../../support/openai-api-server';

const temp = makeTempDir('openai-provider-content');
let server: OpenAIApiServer;
beforeAll(async () => {
  server = await startOpenAIApiServer();
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

/** A client on its own SDK instance, as in another process. */
const freshClient = (): OpenAIModelClient =>
  new OpenAIModelClient({
    client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
    api: 'responses',
  });

describe('Responses API reasoning items in a durable run', () => {
  it('are stored with the assistant message and sent back unchanged when the run is resumed by another client', async () => {
    const path = join(temp.path, 'runs.db');
    const provider = new FunctionProvider().add('weather', () => 'sunny', {}, { city: { type: 'string' } });
    const answer = {
      reasoning: { id: 'rs_01', encrypted: 'gAAAA-opaque' },
      calls: [{ id: 'call_0', name: 'weather', pieces: ['{"city":"Oslo"}'] }],
    };
    const output = responsesBody(answer).output;
    server.enqueue(responsesReply(answer));
    const first = new SqliteRunStore(path);
    const stopped = await new LlmAgentRunner(freshClient(), provider).complete('Weather in Oslo?', {
      store: first,
      runId: 'r',
      maxSteps: 1,
    });
    expect(stopped.stopReason).toBe('max_steps');
    const stored = (await first.loadRun('r'))!.messages[1];
    expect(stored).toMatchObject({ role: 'assistant', providerContent: { provider: 'openai', blocks: output } });
    await first.close();

    server.enqueue(responsesReply({ text: ['Sunny in Oslo.'] }));
    const second = new SqliteRunStore(path);
    const resumed = await new LlmAgentRunner(freshClient(), provider).resume('r', { store: second, maxSteps: 2 });
    expect(resumed.text).toBe('Sunny in Oslo.');
    const sent = server.requests[server.requests.length - 1].body as { input: unknown[] };
    expect(sent.input).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      ...(output as unknown[]),
      expect.objectContaining({ type: 'function_call_output', call_id: 'call_0' }),
    ]);
    await second.close();
  });
});
