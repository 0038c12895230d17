import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { join } from 'node:path';
import { LlmAgentRunner, LlmAgentRunResult, LlmAgentRunStream } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { OpenAIModelClient } from '../../lib/model/openai';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from '../runner/support';
import { messageReply } from '../support/messages-api-server';
import {
  chatReply,
  chatStreamReply,
  responsesReply,
  responsesStreamReply,
  ScriptedAnswer,
} from '../support/openai-api-fixtures';
import { useLocalModelServers } from '../support/local-model-servers';

const temp = makeTempDir('refused-call-replay');
const servers = useLocalModelServers();
afterAll(() => {
  temp.cleanup();
});

const openaiClient = (api: 'chat' | 'responses'): OpenAIModelClient =>
  new OpenAIModelClient({
    client: new OpenAI({ apiKey: 'test-key', baseURL: servers.openai.baseURL, maxRetries: 0 }),
    api,
  });
const anthropicClient = (): AnthropicModelClient =>
  new AnthropicModelClient({
    client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
  });
const weather = (): FunctionProvider =>
  new FunctionProvider().add('get_weather', () => 'sunny', {}, { city: { type: 'string' } });
const cut: ScriptedAnswer = { calls: [{ id: 'call_1', name: 'get_weather', pieces: ['{"ci', 'ty":'] }] };

async function drained(run: LlmAgentRunStream): Promise<LlmAgentRunResult> {
  for await (const event of run) void event;
  return run.result;
}

/** The failure code in the tool result the last request carried for `call_1`. */
function failureCode(toolContent: unknown): unknown {
  return (JSON.parse(String(toolContent)) as { error: { code: string } }).error.code;
}

describe('OpenAIModelClient replay of a call whose arguments are not JSON', () => {
  it.each([
    ['chat', 'complete', chatReply(cut), chatReply({ text: ['Done.'] })],
    ['chat', 'stream', chatStreamReply(cut), chatStreamReply({ text: ['Done.'] })],
    ['responses', 'complete', responsesReply(cut), responsesReply({ text: ['Done.'] })],
    ['responses', 'stream', responsesStreamReply(cut), responsesStreamReply({ text: ['Done.'] })],
  ] as const)(
    "%s %s(): the model's own text goes back with its invalid_json result and the run completes",
    async (api, mode, first, second) => {
      const provider = weather();
      servers.openai.enqueue(first, second);
      const runner = new LlmAgentRunner(openaiClient(api), provider);
      const result =
        mode === 'complete'
          ? await runner.complete('Weather in Oslo?')
          : await drained(runner.stream('Weather in Oslo?'));
      expect(result.text).toBe('Done.');
      expect(provider.calls).toHaveLength(0);
      const body = servers.openai.requests[servers.openai.requests.length - 1].body;
      if (api === 'chat') {
        const assistant = body.messages.find((message: any) => message.role === 'assistant');
        expect(assistant.tool_calls[0].function.arguments).toBe('{"city":');
        expect(failureCode(body.messages.find((message: any) => message.role === 'tool').content)).toBe('invalid_json');
      } else {
        expect(body.input.find((item: any) => item.type === 'function_call').arguments).toBe('{"city":');
        expect(failureCode(body.input.find((item: any) => item.type === 'function_call_output').output)).toBe(
          'invalid_json',
        );
      }
    },
  );
});

describe('AnthropicModelClient replay of a recorded call whose arguments are not JSON', () => {
  it.each(['resume', 'resumeStream'] as const)(
    '%s(): a SQLite record holding such a call sends it as `{}` with its failure and completes',
    async (mode) => {
      const path = join(temp.path, `${mode}.db`);
      const provider = weather();
      servers.openai.enqueue(chatReply(cut));
      const first = new SqliteRunStore(path);
      const stopped = await new LlmAgentRunner(openaiClient('chat'), provider).complete('Weather in Oslo?', {
        store: first,
        runId: 'r',
        maxSteps: 1,
      });
      expect(stopped.stopReason).toBe('max_steps');
      await first.close();

      servers.anthropic.enqueue(
        mode === 'resume'
          ? messageReply({ content: [{ type: 'text', text: 'Done.' }] })
          : { kind: 'sse', body: { content: [{ type: 'text', text: 'Done.' }] } },
      );
      const second = new SqliteRunStore(path);
      const runner = new LlmAgentRunner(anthropicClient(), provider);
      const resumed =
        mode === 'resume'
          ? await runner.resume('r', { store: second, maxSteps: 2 })
          : await drained(runner.resumeStream('r', { store: second, maxSteps: 2 }));
      expect(resumed.text).toBe('Done.');
      expect((await second.loadRun('r'))!.status).toBe('completed');
      expect(provider.calls).toHaveLength(0);
      const [, assistant, results] = servers.anthropic.requests[servers.anthropic.requests.length - 1].body.messages;
      expect(assistant.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} }]);
      expect(results.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1', is_error: true });
      expect(failureCode(results.content[0].content)).toBe('invalid_json');
      await second.close();
    },
  );
});
