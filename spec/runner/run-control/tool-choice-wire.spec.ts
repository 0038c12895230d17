import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createOpenAI } from '@ai-sdk/openai';
import { LlmAgentError, LlmAgentRunner } from '../../../lib';
import { ModelStepper } from '../../../lib/model';
import { AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { OpenAIModelClient } from '../../../lib/model/openai';
import { ToolChoice } from '../../../lib/runner';
import { FunctionProvider } from '../support';
import { messageReply } from '../../support/messages-api-server';
import { chatReply, responsesReply } from '../../support/openai-api-fixtures';
import { useLocalModelServers } from '../../support/local-model-servers';
import { ChatCompletionsServer, completion, startChatCompletionsServer } from '../../support/ai-sdk-openai-server';

const servers = useLocalModelServers();
let aiSdkServer: ChatCompletionsServer;
beforeAll(async () => {
  aiSdkServer = await startChatCompletionsServer();
});
afterAll(async () => {
  await aiSdkServer.close();
});

const tools = (): FunctionProvider =>
  new FunctionProvider()
    .add('get_weather', () => 'sunny', {}, { city: { type: 'string' } })
    .add('delete_file', () => 'deleted', { sideEffect: 'destructive' }, { path: { type: 'string' } });

const anthropic = (): AnthropicModelClient =>
  new AnthropicModelClient({
    client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
    maxTokens: 1000,
  });
const openai = (api: 'chat' | 'responses'): OpenAIModelClient =>
  new OpenAIModelClient({
    client: new OpenAI({ apiKey: 'test-key', baseURL: servers.openai.baseURL, maxRetries: 0 }),
    api,
    maxTokens: 1000,
  });
const aiSdk = (): AiSdkModelClient =>
  new AiSdkModelClient(createOpenAI({ apiKey: 'test-key', baseURL: aiSdkServer.baseURL }).chat('gpt-test'), {
    maxOutputTokens: 1000,
  });

/** The body the real SDK sent last, the tool names it offered, and its tool choice as the wire has it. */
function lastWire(client: 'anthropic' | 'chat' | 'responses' | 'ai-sdk'): { names: string[]; choice: unknown } {
  if (client === 'anthropic') {
    const body = servers.anthropic.requests[servers.anthropic.requests.length - 1].body;
    return { names: body.tools.map((tool: any) => tool.name), choice: body.tool_choice };
  }
  const requests = client === 'ai-sdk' ? aiSdkServer.requests : servers.openai.requests;
  const body = requests[requests.length - 1].body;
  const names = body.tools.map((tool: any) => (client === 'responses' ? tool.name : tool.function.name));
  return { names, choice: body.tool_choice };
}

function enqueueDone(client: 'anthropic' | 'chat' | 'responses' | 'ai-sdk'): void {
  if (client === 'anthropic') servers.anthropic.enqueue(messageReply({ content: [{ type: 'text', text: 'Done.' }] }));
  else if (client === 'chat') servers.openai.enqueue(chatReply({ text: ['Done.'] }));
  else if (client === 'responses') servers.openai.enqueue(responsesReply({ text: ['Done.'] }));
  else aiSdkServer.enqueue(completion({ text: 'Done.' }));
}

const clientOf = (client: 'anthropic' | 'chat' | 'responses' | 'ai-sdk'): ModelStepper =>
  client === 'anthropic' ? anthropic() : client === 'ai-sdk' ? aiSdk() : openai(client);

const wireChoices: Record<string, Record<string, unknown>> = {
  anthropic: {
    required: { type: 'any' },
    none: { type: 'none' },
    auto: { type: 'auto' },
    tool: { type: 'tool', name: 'get_weather' },
  },
  chat: {
    required: 'required',
    none: 'none',
    auto: 'auto',
    tool: { type: 'function', function: { name: 'get_weather' } },
  },
  responses: { required: 'required', none: 'none', auto: 'auto', tool: { type: 'function', name: 'get_weather' } },
  'ai-sdk': {
    required: 'required',
    none: 'none',
    auto: 'auto',
    tool: { type: 'function', function: { name: 'get_weather' } },
  },
};

describe('toolChoice and activeTools on the wire of each real SDK', () => {
  describe.each(['anthropic', 'chat', 'responses', 'ai-sdk'] as const)('%s', (client) => {
    it.each(['required', 'none', 'auto', 'tool'] as const)(
      'toolChoice %s is sent in the provider form',
      async (kind) => {
        enqueueDone(client);
        const toolChoice: ToolChoice = kind === 'tool' ? { tool: 'get_weather' } : kind;
        const result = await new LlmAgentRunner(clientOf(client), tools()).complete('Weather?', { toolChoice });
        expect(result.text).toBe('Done.');
        expect(lastWire(client).choice).toEqual(wireChoices[client][kind]);
      },
    );

    it('activeTools narrows the tools sent; without a choice no tool_choice is sent', async () => {
      enqueueDone(client);
      await new LlmAgentRunner(clientOf(client), tools()).complete('Weather?', { activeTools: ['get_weather'] });
      expect(lastWire(client)).toEqual({ names: ['get_weather'], choice: undefined });
    });

    it('prepareStep changes the active tools and the choice per step, and caps nothing without a budget', async () => {
      if (client === 'anthropic')
        servers.anthropic.enqueue(
          messageReply({
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
            stop_reason: 'tool_use',
          }),
        );
      else if (client === 'chat')
        servers.openai.enqueue(
          chatReply({ calls: [{ id: 'call_1', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }] }),
        );
      else if (client === 'responses')
        servers.openai.enqueue(
          responsesReply({ calls: [{ id: 'call_1', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }] }),
        );
      else
        aiSdkServer.enqueue(
          completion({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }),
        );
      enqueueDone(client);
      const seen: number[] = [];
      const result = await new LlmAgentRunner(clientOf(client), tools()).complete('Weather?', {
        prepareStep: ({ step }) => {
          seen.push(step);
          return step === 1
            ? { toolChoice: { tool: 'get_weather' } }
            : { activeTools: ['delete_file'], toolChoice: 'none' };
        },
      });
      expect(seen).toEqual([1, 2]);
      expect(result.toolCalls.map((call) => call.outcome.ok)).toEqual([true]);
      expect(lastWire(client)).toEqual({ names: ['delete_file'], choice: wireChoices[client].none });
    });
  });
});

describe('toolChoice refused before any request', () => {
  it('a client without supportsToolChoice: invalid_run_options, nothing sent', async () => {
    let requests = 0;
    const bare: ModelStepper = {
      modelName: 'bare',
      step: () => {
        requests++;
        return Promise.resolve({
          text: '',
          toolCalls: [],
          stopReason: 'end_turn',
          usage: { inputTokens: 0, outputTokens: 0 },
        });
      },
    };
    const runner = new LlmAgentRunner(bare, tools());
    await expect(runner.complete('Hi', { toolChoice: 'required' })).rejects.toMatchObject({
      code: 'invalid_run_options',
      message: expect.stringContaining('supportsToolChoice'),
    });
    expect(requests).toBe(0);
  });

  it.each([
    [{ toolChoice: { tool: 'nope' } }, "names tool 'nope'"],
    [{ activeTools: ['get_weather'], toolChoice: { tool: 'delete_file' } }, "names tool 'delete_file'"],
    [{ activeTools: ['__proto__'] }, 'does not have: __proto__'],
    [{ activeTools: [], toolChoice: 'required' }, "'required' needs at least one"],
    [{ toolChoice: 'sometimes' }, "must be 'auto'"],
  ] as const)('%j is invalid_run_options', async (options, message) => {
    const before = servers.anthropic.requests.length;
    const runner = new LlmAgentRunner(anthropic(), tools());
    const failure = await runner.complete('Hi', options as never).catch((error: unknown) => error);
    expect(LlmAgentError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'invalid_run_options', message: expect.stringContaining(message) });
    expect(servers.anthropic.requests.length).toBe(before);
  });
});
