import Anthropic from '@anthropic-ai/sdk';
import { LlmTool } from '../../../lib/contract/llm-tool';
import {
  AnthropicModelClient,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL,
  assistantMessageFromResponse,
} from '../../../lib/model/anthropic';
import { ModelClientOptionsError } from '../../../lib';
import { ChatMessage, ModelRequest } from '../../../lib/model/model-types';
import { MessagesApiServer, apiKeyOf, messageReply, startMessagesApiServer } from '../../support/messages-api-server';

const weatherTool: LlmTool = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name.' } },
    required: ['city'],
    additionalProperties: false,
  },
};

const timeTool: LlmTool = {
  name: 'get_time',
  description: 'Get the local time of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('AnthropicModelClient', () => {
  let server: MessagesApiServer;
  let sdk: Anthropic;

  beforeEach(async () => {
    server = await startMessagesApiServer();
    sdk = new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
  });

  afterEach(async () => {
    await server.close();
  });

  function request(messages: readonly ChatMessage[], tools: readonly LlmTool[] = []): ModelRequest {
    return { messages, tools, signal: new AbortController().signal };
  }

  describe('construction', () => {
    it('uses the documented model and max_tokens defaults', async () => {
      const client = new AnthropicModelClient({ client: sdk });
      expect(client.modelName).toBe(DEFAULT_ANTHROPIC_MODEL);
      expect(DEFAULT_ANTHROPIC_MODEL).toBe('claude-sonnet-5-5');

      server.enqueue(messageReply());
      await client.step(request([{ role: 'user', content: 'Hi' }]));

      expect(server.requests[0].body).toEqual({
        model: 'claude-sonnet-5-5',
        max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      });
    });

    it('sends through the given SDK client, keeping its key, base URL and headers', async () => {
      const custom = new Anthropic({
        apiKey: 'custom-key',
        baseURL: server.baseURL,
        maxRetries: 0,
        defaultHeaders: { 'x-team': 'agents' },
      });
      const client = new AnthropicModelClient({ client: custom, model: 'claude-haiku-4-5', maxTokens: 256 });
      expect(client.client).toBe(custom);
      expect(client.modelName).toBe('claude-haiku-4-5');

      server.enqueue(messageReply());
      await client.step(request([{ role: 'user', content: 'Hi' }]));

      const sent = server.requests[0];
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe('/v1/messages');
      expect(apiKeyOf(sent)).toBe('custom-key');
      expect(sent.headers['x-team']).toBe('agents');
      expect(sent.headers['anthropic-version']).toEqual(expect.any(String));
      expect(sent.body.model).toBe('claude-haiku-4-5');
      expect(sent.body.max_tokens).toBe(256);
    });

    it('creates its own SDK client from ANTHROPIC_API_KEY when none is given', async () => {
      const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
      process.env.ANTHROPIC_API_KEY = 'env-key';
      process.env.ANTHROPIC_BASE_URL = server.baseURL;
      try {
        const client = new AnthropicModelClient();
        expect(client.client).toBeInstanceOf(Anthropic);
        server.enqueue(messageReply());
        await client.step(request([{ role: 'user', content: 'Hi' }]));
        expect(apiKeyOf(server.requests[0])).toBe('env-key');
      } finally {
        restoreEnv('ANTHROPIC_API_KEY', saved.key);
        restoreEnv('ANTHROPIC_BASE_URL', saved.url);
      }
    });

    it('rejects options that cannot work, listing every problem', () => {
      expect(
        () => new AnthropicModelClient({ client: sdk, apiKey: 'k', maxTokens: 0, temperature: 2, model: ' ' }),
      ).toThrow(ModelClientOptionsError);
      try {
        new AnthropicModelClient({ client: sdk, apiKey: 'k', maxTokens: 1.5, temperature: 2, model: '' });
      } catch (error) {
        expect(error).toBeInstanceOf(ModelClientOptionsError);
        const optionsError = error as ModelClientOptionsError;
        expect(optionsError.code).toBe('invalid_model_client_options');
        expect(optionsError.problems).toHaveLength(4);
        expect(optionsError.message).toMatch(/either `client` or `apiKey`/);
        expect(optionsError.message).toMatch(/`maxTokens` must be a positive integer, got 1.5/);
      }
      expect.assertions(6);
    });

    it('refuses extra parameters that the client manages itself', () => {
      const extraParams = { stream: true, model: 'other' } as Record<string, unknown>;
      expect(() => new AnthropicModelClient({ client: sdk, extraParams })).toThrow(
        /`extraParams` may not set stream, model/,
      );
    });
  });

  describe('step: the request sent', () => {
    it('maps tools to name, description and input_schema, and sends system, temperature and stop sequences', async () => {
      const client = new AnthropicModelClient({
        client: sdk,
        model: 'claude-test',
        maxTokens: 1024,
        system: 'default system',
        temperature: 0.2,
        stopSequences: ['END'],
        extraParams: { tool_choice: { type: 'auto' }, metadata: { user_id: 'u-1' } },
      });
      server.enqueue(messageReply(), messageReply());

      await client.step({
        ...request([{ role: 'user', content: 'Weather?' }], [weatherTool, timeTool]),
        system: 'Be brief.',
      });
      await client.step(request([{ role: 'user', content: 'Again' }]));

      expect(server.requests[0].body).toEqual({
        model: 'claude-test',
        max_tokens: 1024,
        system: 'Be brief.',
        temperature: 0.2,
        stop_sequences: ['END'],
        tool_choice: { type: 'auto' },
        metadata: { user_id: 'u-1' },
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
        tools: [
          { name: 'get_weather', description: weatherTool.description, input_schema: weatherTool.inputSchema },
          { name: 'get_time', description: timeTool.description, input_schema: timeTool.inputSchema },
        ],
      });
      expect(server.requests[1].body.system).toBe('default system');
      expect(server.requests[1].body).not.toHaveProperty('tools');
    });

    it('sends assistant tool_use blocks and groups consecutive tool results into one user turn', async () => {
      const client = new AnthropicModelClient({ client: sdk });
      server.enqueue(messageReply());
      const messages: ChatMessage[] = [
        { role: 'user', content: 'Weather and time in Tokyo and Paris?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          toolCalls: [
            { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Tokyo' } },
            { id: 'toolu_2', name: 'get_time', arguments: '{"city":"Paris"}' },
            { id: 'toolu_3', name: 'get_weather', arguments: { city: 'Paris' } },
          ],
        },
        {
          role: 'tool',
          toolCallId: 'toolu_1',
          toolName: 'get_weather',
          content: 'Tokyo is 22 degrees.',
          isError: false,
        },
        {
          role: 'tool',
          toolCallId: 'toolu_2',
          toolName: 'get_time',
          content:
            '{"ok":false,"error":{"code":"timeout","category":"transient","message":"timed out","retryable":true}}',
          isError: true,
        },
        {
          role: 'tool',
          toolCallId: 'toolu_3',
          toolName: 'get_weather',
          content: 'Paris is 14 degrees.',
          isError: false,
        },
      ];

      await client.step(request(messages, [weatherTool, timeTool]));

      expect(server.requests[0].body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather and time in Tokyo and Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Tokyo' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Tokyo is 22 degrees.' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: messages[3].content, is_error: true },
            { type: 'tool_result', tool_use_id: 'toolu_3', content: 'Paris is 14 degrees.' },
          ],
        },
      ]);
    });

    it('leaves out the empty text of an assistant turn that only calls tools', async () => {
      const client = new AnthropicModelClient({ client: sdk });
      server.enqueue(messageReply());
      await client.step(
        request([
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'toolu_9', name: 'get_weather', arguments: { city: 'Oslo' } }],
          },
          { role: 'tool', toolCallId: 'toolu_9', toolName: 'get_weather', content: 'Cold.', isError: false },
        ]),
      );
      expect(server.requests[0].body.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { city: 'Oslo' } }],
      });
    });
  });

  describe('step: the response mapped', () => {
    it('maps several tool_use blocks to tool calls, concatenates text, and maps usage and model', async () => {
      const client = new AnthropicModelClient({ client: sdk });
      server.enqueue(
        messageReply({
          model: 'claude-sonnet-5-5-20260928',
          content: [
            { type: 'text', text: 'Checking ' },
            { type: 'text', text: 'both cities.' },
            { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Tokyo' } },
            { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 30, cache_creation_input_tokens: 5 },
        }),
      );

      const response = await client.step(request([{ role: 'user', content: 'Weather?' }], [weatherTool]));

      expect(response).toEqual({
        text: 'Checking both cities.',
        toolCalls: [
          { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Tokyo' } },
          { id: 'toolu_b', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        ],
        stopReason: 'tool_use',
        usage: { inputTokens: 155, outputTokens: 45, cachedInputTokens: 30 },
        model: 'claude-sonnet-5-5-20260928',
      });
    });

    it("gives tool-call arguments as plain objects of the caller's realm, whatever realm parsed the body", async () => {
      const client = new AnthropicModelClient({ client: sdk });
      server.enqueue(
        messageReply({
          content: [{ type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Tokyo', days: [1, 2] } }],
          stop_reason: 'tool_use',
        }),
      );

      const response = await client.step(request([{ role: 'user', content: 'Weather?' }], [weatherTool]));

      const args = response.toolCalls[0].arguments as { days: unknown };
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(Array.isArray(args.days)).toBe(true);
      expect(args.days).toBeInstanceOf(Array);
    });

    it.each([
      ['end_turn', 'end_turn'],
      ['tool_use', 'tool_use'],
      ['max_tokens', 'max_tokens'],
      ['stop_sequence', 'stop_sequence'],
      ['refusal', 'refusal'],
      ['pause_turn', 'pause_turn'],
      ['model_context_window_exceeded', 'max_tokens'],
      ['something_new', 'other'],
      [null, 'other'],
    ])('maps stop_reason %p to %p', async (apiReason, expected) => {
      const client = new AnthropicModelClient({ client: sdk });
      server.enqueue(messageReply({ stop_reason: apiReason }));
      const response = await client.step(request([{ role: 'user', content: 'Hi' }]));
      expect(response.stopReason).toBe(expected);
    });

    it('sends a turn with thinking blocks back exactly as the API returned it', async () => {
      const client = new AnthropicModelClient({ client: sdk });
      const thinking = { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig-123' };
      const toolUse = {
        type: 'tool_use',
        id: 'toolu_t',
        name: 'get_weather',
        input: { city: 'Lima' },
        caller: { type: 'direct' },
      };
      server.enqueue(messageReply({ content: [thinking, toolUse], stop_reason: 'tool_use' }), messageReply());
      const first: ChatMessage = { role: 'user', content: 'Weather in Lima?' };

      const response = await client.step(request([first], [weatherTool]));
      expect(response.toolCalls).toEqual([{ id: 'toolu_t', name: 'get_weather', arguments: { city: 'Lima' } }]);
      // As a durable store would give it back: a copy, not the same objects.
      const stored = JSON.parse(JSON.stringify(assistantMessageFromResponse(response))) as ChatMessage;
      await client.step(
        request(
          [
            first,
            stored,
            { role: 'tool', toolCallId: 'toolu_t', toolName: 'get_weather', content: 'Mild.', isError: false },
          ],
          [weatherTool],
        ),
      );

      expect(server.requests[1].body.messages[1]).toEqual({ role: 'assistant', content: [thinking, toolUse] });
      expect(server.requests[1].body.messages[2]).toEqual({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_t', content: 'Mild.' }],
      });
    });

    it('passes request.signal to the SDK', async () => {
      const create = jest.spyOn(sdk.messages, 'create');
      const client = new AnthropicModelClient({ client: sdk });
      const controller = new AbortController();
      server.enqueue(messageReply());
      await client.step({ messages: [{ role: 'user', content: 'Hi' }], tools: [], signal: controller.signal });
      expect(create).toHaveBeenCalledWith(expect.anything(), { signal: controller.signal });
    });
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
