import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { Field, Tool } from '../../../lib';
import { messageReply, startMessagesApiServer } from '../../support/messages-api-server';

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

describe('AnthropicModelClient.bindTools', () => {
  it('runs the README example against a Messages API server through the real SDK', async () => {
    const server = await startMessagesApiServer();
    server.enqueue(
      messageReply({
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'GetWeather', input: { city: 'Tokyo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'Broken', input: { reason: 'sensor offline' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 20, output_tokens: 10 },
      }),
      messageReply({
        content: [{ type: 'text', text: 'Tokyo is 22 degrees.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 40, output_tokens: 5 },
      }),
    );
    try {
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
        model: 'claude-sonnet-5-5',
        maxTokens: 512,
      });
      const result = await client.bindTools(GetWeather, Broken).complete("What's the weather in Tokyo?");
      expect(result.text).toBe('Tokyo is 22 degrees.');
      expect(result.stopReason).toBe('end_turn');
      expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 15 });
      const [first, second] = server.requests.map((request) => request.body);
      expect(first.model).toBe('claude-sonnet-5-5');
      expect(first.max_tokens).toBe(512);
      expect(first.tools.map((tool: any) => tool.name)).toEqual(['GetWeather', 'Broken']);
      expect(first.tools[0].input_schema).toEqual({
        type: 'object',
        properties: { city: { type: 'string', description: 'City name.' } },
        required: ['city'],
        additionalProperties: false,
      });
      const toolResults = second.messages[2];
      expect(toolResults.role).toBe('user');
      expect(toolResults.content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'Tokyo is 22 degrees.',
      });
      expect(toolResults.content[0].is_error).toBeFalsy();
      expect(toolResults.content[1]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true });
      expect(JSON.parse(toolResults.content[1].content)).toEqual({
        ok: false,
        error: { code: 'tool_error', category: 'internal', message: 'sensor offline', retryable: false },
      });
    } finally {
      await server.close();
    }
  });

  it('an API failure rejects the run with the typed error; an abort mid-request stops it as aborted', async () => {
    const server = await startMessagesApiServer();
    try {
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      });
      server.enqueue({ kind: 'overloaded', requestId: 'req_529' });
      await expect(client.bindTools(GetWeather).complete('weather?')).rejects.toMatchObject({
        code: 'overloaded',
        status: 529,
        requestId: 'req_529',
      });

      server.enqueue({ kind: 'hang' });
      const controller = new AbortController();
      const running = client.bindTools(GetWeather).complete('weather?', { signal: controller.signal });
      await server.waitForRequests(2);
      controller.abort();
      const result = await running;
      expect(result.stopReason).toBe('aborted');
      await server.waitForHangUp();
    } finally {
      await server.close();
    }
  });
});
