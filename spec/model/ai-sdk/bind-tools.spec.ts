import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { Field, MemoryRunStore, Tool } from '../../../lib';
import { AiSdkLanguageModel, AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { completion, startChatCompletionsServer } from '../../support/ai-sdk-openai-server';

@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

@Tool({ description: 'Always fails.' })
class Broken {
  @Field() reason!: string;
  invoke(): never {
    throw new Error(this.reason);
  }
}

const usage = (input: number, output: number): LanguageModelV3GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** The same scripted conversation through every model: two calls (one failing), then a final answer. */
async function runConversation(
  model: AiSdkLanguageModel,
): Promise<Awaited<ReturnType<ReturnType<AiSdkModelClient['bindTools']>['complete']>>> {
  return new AiSdkModelClient(model)
    .bindTools(GetWeather, Broken)
    .complete("What's the weather in Tokyo?", { store: new MemoryRunStore() });
}

describe('AiSdkModelClient.bindTools(...).complete()', () => {
  it('runs a tool call then a final answer through the AI SDK mock model, reasoning sent back in the second step', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: 'reasoning', text: 'Need the weather.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'GetWeather', input: '{"city":"Tokyo"}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'Broken', input: '{"reason":"sensor offline"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage: usage(20, 10),
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'Tokyo is 22 degrees.' }],
          finishReason: { unified: 'stop', raw: 'end_turn' },
          usage: usage(40, 5),
          warnings: [],
        },
      ],
    });
    const result = await runConversation(model);
    expect(result).toMatchObject({
      text: 'Tokyo is 22 degrees.',
      stopReason: 'end_turn',
      steps: 2,
      usage: { inputTokens: 60, outputTokens: 15 },
    });
    expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok])).toEqual([
      ['GetWeather', true],
      ['Broken', false],
    ]);
    expect(model.doGenerateCalls[0].tools?.map((tool) => tool.name)).toEqual(['GetWeather', 'Broken']);
    const second = model.doGenerateCalls[1].prompt;
    expect(second[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'reasoning', providerOptions: { anthropic: { signature: 'sig-1' } } },
        { type: 'text' },
        { type: 'tool-call' },
        { type: 'tool-call' },
      ],
    });
    expect(second[2]).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call_1', output: { type: 'text', value: 'Tokyo is 22 degrees.' } },
        { type: 'tool-result', toolCallId: 'call_2', output: { type: 'error-text' } },
      ],
    });
  });

  it('runs the same conversation through @ai-sdk/openai against a local server', async () => {
    const server = await startChatCompletionsServer();
    try {
      server.enqueue(
        completion({
          text: 'Let me check.',
          toolCalls: [
            { id: 'call_1', name: 'GetWeather', arguments: '{"city":"Tokyo"}' },
            { id: 'call_2', name: 'Broken', arguments: '{"reason":"sensor offline"}' },
          ],
          usage: { prompt_tokens: 20, completion_tokens: 10 },
        }),
        completion({ text: 'Tokyo is 22 degrees.', usage: { prompt_tokens: 40, completion_tokens: 5 } }),
      );
      const result = await runConversation(
        createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL }).chat('gpt-test'),
      );
      expect(result).toMatchObject({
        text: 'Tokyo is 22 degrees.',
        stopReason: 'end_turn',
        steps: 2,
        usage: { inputTokens: 60, outputTokens: 15 },
      });
      expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok])).toEqual([
        ['GetWeather', true],
        ['Broken', false],
      ]);
      const [first, second] = server.requests.map((request) => request.body);
      expect(first.tools[0].function).toEqual({
        name: 'GetWeather',
        description: 'Get the current weather for a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string', description: 'City name.' } },
          required: ['city'],
          additionalProperties: false,
        },
      });
      expect(second.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'GetWeather', arguments: '{"city":"Tokyo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'Broken', arguments: '{"reason":"sensor offline"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Tokyo is 22 degrees.' },
        { role: 'tool', tool_call_id: 'call_2', content: expect.stringContaining('"code":"tool_error"') },
      ]);
    } finally {
      await server.close();
    }
  });

  it('an HTTP failure rejects the run with the typed error; an abort mid-request stops it as aborted', async () => {
    const server = await startChatCompletionsServer();
    try {
      const client = new AiSdkModelClient(
        createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL }).chat('gpt-test'),
      );
      server.enqueue({ kind: 'error', status: 503, type: 'server_error', message: 'unavailable' });
      await expect(client.bindTools(GetWeather).complete('weather?')).rejects.toMatchObject({
        name: 'ModelApiError',
        code: 'server_error',
        status: 503,
      });

      server.enqueue({ kind: 'hang' });
      const controller = new AbortController();
      const running = client.bindTools(GetWeather).complete('weather?', { signal: controller.signal });
      while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      expect((await running).stopReason).toBe('aborted');
      await server.waitForHangUp();
    } finally {
      await server.close();
    }
  });
});
