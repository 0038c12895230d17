import { createOpenAI } from '@ai-sdk/openai';
import { join } from 'node:path';
import { LlmAgentRunner } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../../runner/support';
import {
  ChatCompletionsServer,
  completion,
  startChatCompletionsServer,
  streamedCompletion,
} from '../../support/ai-sdk-openai-server';

const temp = makeTempDir('ai-sdk-refused-call');
let server: ChatCompletionsServer;

beforeEach(async () => {
  server = await startChatCompletionsServer();
});
afterEach(async () => {
  await server.close();
});
afterAll(() => temp.cleanup());

const client = (): AiSdkModelClient =>
  new AiSdkModelClient(createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL }).chat('gpt-test'));
const weather = (): FunctionProvider =>
  new FunctionProvider().add('get_weather', () => 'sunny', {}, { city: { type: 'string' } });

/** The assistant turn and the tool answer of the second request, as the server received them. */
function replayed(): { assistant: any; tool: any } {
  const messages = server.requests[1].body.messages as any[];
  return {
    assistant: messages.find((message) => message.role === 'assistant'),
    tool: messages.find((message) => message.role === 'tool'),
  };
}

describe('AiSdkModelClient replay of a call whose arguments are not a JSON object', () => {
  it.each([
    ['cut by `length`', '{"city":', 'length', 'incomplete_tool_call'],
    ['not JSON with `tool_calls`', '{"city":', 'tool_calls', 'invalid_json'],
    ['a JSON array', '[1,2]', 'tool_calls', 'invalid_arguments'],
    ['a JSON string', '"Oslo"', 'tool_calls', 'invalid_arguments'],
  ])(
    'complete(): arguments %s go back to the model as its failure and the run goes on',
    async (_name, args, finishReason, code) => {
      const provider = weather();
      server.enqueue(
        completion({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: args }], finishReason }),
        completion({ text: 'Done.' }),
      );
      const result = await new LlmAgentRunner(client(), provider).complete('Weather in Oslo?');
      expect(result.text).toBe('Done.');
      expect(provider.calls).toHaveLength(0);
      const { assistant, tool } = replayed();
      expect(assistant.tool_calls).toEqual([
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
      ]);
      expect(JSON.parse(tool.content)).toMatchObject({ ok: false, error: { code } });
    },
  );

  it.each([
    ['cut by `length`', 'length', 'incomplete_tool_call'],
    ['not JSON with `tool_calls`', 'tool_calls', 'invalid_json'],
  ])(
    'stream(): arguments %s go back to the model as its failure and the run goes on',
    async (_name, finishReason, code) => {
      const provider = weather();
      server.enqueue(
        streamedCompletion({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":' }], finishReason }),
        streamedCompletion({ text: 'Done.' }),
      );
      const run = new LlmAgentRunner(client(), provider).stream('Weather in Oslo?');
      const events: string[] = [];
      for await (const event of run) events.push(event.type);
      const result = await run.result;
      expect(result.text).toBe('Done.');
      expect(provider.calls).toHaveLength(0);
      const { assistant, tool } = replayed();
      expect(assistant.tool_calls).toEqual([
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
      ]);
      expect(JSON.parse(tool.content)).toMatchObject({ ok: false, error: { code } });
    },
  );

  it('resume(): a SQLite record holding such a call continues with its failure sent back', async () => {
    const path = join(temp.path, 'resume.db');
    const provider = weather();
    server.enqueue(completion({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":' }] }));
    const first = new SqliteRunStore(path);
    const stopped = await new LlmAgentRunner(client(), provider).complete('Weather in Oslo?', {
      store: first,
      runId: 'r',
      maxSteps: 1,
    });
    expect(stopped.stopReason).toBe('max_steps');
    await first.close();

    server.enqueue(completion({ text: 'Done.' }));
    const second = new SqliteRunStore(path);
    const resumed = await new LlmAgentRunner(client(), provider).resume('r', { store: second, maxSteps: 2 });
    expect(resumed.text).toBe('Done.');
    expect((await second.loadRun('r'))!.status).toBe('completed');
    expect(provider.calls).toHaveLength(0);
    const { assistant, tool } = replayed();
    expect(assistant.tool_calls[0].function.arguments).toBe('{}');
    expect(JSON.parse(tool.content)).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    await second.close();
  });
});
