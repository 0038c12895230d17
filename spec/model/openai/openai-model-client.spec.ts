import OpenAI from 'openai';
import { LlmTool } from '../../../lib/contract/llm-tool';
import { ChatMessage, ModelRequest, ModelResponse, ProviderContent } from '../../../lib/model/model-types';
import { DEFAULT_OPENAI_MODEL, OpenAIModelClient } from '../../../lib/model/openai';
import { ModelClientOptionsError } from '../../../lib';
import { chatReply, responsesReply, ScriptedAnswer } from '../../support/openai-api-fixtures';
import { OpenAIApiServer, startOpenAIApiServer } from '../../support/openai-api-server';

const weatherTool: LlmTool = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['C', 'F'] } },
    required: ['city'],
    additionalProperties: false,
  },
};

const apis = ['chat', 'responses'] as const;
const replyOf = (api: 'chat' | 'responses', answer: ScriptedAnswer) =>
  api === 'chat' ? chatReply(answer) : responsesReply(answer);

describe('OpenAIModelClient', () => {
  let server: OpenAIApiServer;
  let sdk: OpenAI;

  beforeEach(async () => {
    server = await startOpenAIApiServer();
    sdk = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
  });

  afterEach(async () => {
    await server.close();
  });

  function request(messages: readonly ChatMessage[], tools: readonly LlmTool[] = [], system?: string): ModelRequest {
    return { messages, tools, signal: new AbortController().signal, ...(system !== undefined ? { system } : {}) };
  }

  describe('construction', () => {
    it('uses the documented defaults: Chat Completions, DEFAULT_OPENAI_MODEL, nothing optional sent', async () => {
      const client = new OpenAIModelClient({ client: sdk });
      expect(client.modelName).toBe(DEFAULT_OPENAI_MODEL);
      expect(client.api).toBe('chat');
      server.enqueue(chatReply({ text: ['Hello.'] }));
      await client.step(request([{ role: 'user', content: 'Hi' }]));
      expect(server.requests[0].path).toBe('/v1/chat/completions');
      expect(server.requests[0].body).toEqual({
        model: DEFAULT_OPENAI_MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: false,
      });
    });

    it('builds its own SDK client from apiKey and baseURL (an OpenAI-compatible server)', async () => {
      const client = new OpenAIModelClient({ apiKey: 'local-key', baseURL: server.baseURL, model: 'qwen3' });
      server.enqueue(chatReply({ text: ['Hi.'] }));
      const response = await client.step(request([{ role: 'user', content: 'Hi' }]));
      expect(response.text).toBe('Hi.');
      expect(server.requests[0].headers.authorization).toBe('Bearer local-key');
      expect(server.requests[0].body.model).toBe('qwen3');
    });

    it('lists every problem of the options at once', () => {
      let error: unknown;
      try {
        new OpenAIModelClient({
          client: sdk,
          apiKey: 'k',
          api: 'completions' as never,
          maxTokens: 0,
          temperature: 3,
          baseURL: 'ftp://x',
          extraParams: { model: 'x', stream: true },
        });
      } catch (caught) {
        error = caught;
      }
      expect(ModelClientOptionsError.isInstance(error)).toBe(true);
      expect((error as ModelClientOptionsError).problems).toEqual([
        "`api` must be 'chat' or 'responses', got completions",
        'pass either `client` or `apiKey`/`baseURL`, not both (configure them on the client)',
        '`baseURL` must be an http(s) URL, got ftp://x',
        '`maxTokens` must be a positive integer, got 0',
        '`temperature` must be a number from 0 to 2, got 3',
        "`extraParams` may not set model, stream (use the client's own options)",
      ]);
    });

    it('refuses to start without any API key', () => {
      const saved = process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_API_KEY;
      try {
        expect(() => new OpenAIModelClient()).toThrow(/no API key: set the OPENAI_API_KEY environment variable/);
      } finally {
        if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
      }
    });
  });

  describe('Chat Completions requests', () => {
    it('maps system, user, assistant tool calls and tool results, and the options', async () => {
      const client = new OpenAIModelClient({
        client: sdk,
        model: 'gpt-test',
        maxTokens: 300,
        temperature: 0.5,
        parallelToolCalls: true,
        extraParams: { seed: 7 },
      });
      server.enqueue(chatReply({ text: ['Sunny.'] }));
      await client.step(
        request(
          [
            { role: 'user', content: 'Weather in Paris and Rome?' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [
                { id: 'call_0', name: 'get_weather', arguments: { city: 'Paris' } },
                { id: 'call_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
              ],
            },
            { role: 'tool', toolCallId: 'call_0', toolName: 'get_weather', content: '{"ok":true}', isError: false },
            { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '{"ok":false}', isError: true },
          ],
          [weatherTool],
          'Be brief.',
        ),
      );
      expect(server.requests[0].body).toEqual({
        seed: 7,
        model: 'gpt-test',
        stream: false,
        max_completion_tokens: 300,
        temperature: 0.5,
        parallel_tool_calls: true,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '{"ok":true}' },
          { role: 'tool', tool_call_id: 'call_1', content: '{"ok":false}' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: weatherTool.description,
              parameters: weatherTool.inputSchema,
            },
          },
        ],
      });
    });
  });

  describe('Responses API requests', () => {
    it('maps messages to input items, the system prompt to instructions, and asks for encrypted reasoning', async () => {
      const client = new OpenAIModelClient({
        client: sdk,
        api: 'responses',
        model: 'gpt-test',
        maxTokens: 300,
        system: 'Default.',
      });
      server.enqueue(responsesReply({ text: ['Sunny.'] }));
      await client.step(
        request(
          [
            { role: 'user', content: 'Weather?' },
            {
              role: 'assistant',
              content: 'Checking.',
              toolCalls: [{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' }],
            },
            { role: 'tool', toolCallId: 'call_0', toolName: 'get_weather', content: 'sunny', isError: false },
          ],
          [weatherTool],
        ),
      );
      expect(server.requests[0].path).toBe('/v1/responses');
      expect(server.requests[0].body).toEqual({
        model: 'gpt-test',
        stream: false,
        store: false,
        include: ['reasoning.encrypted_content'],
        instructions: 'Default.',
        max_output_tokens: 300,
        input: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: 'Checking.' },
          { type: 'function_call', call_id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_0', output: 'sunny' },
        ],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            description: weatherTool.description,
            parameters: weatherTool.inputSchema,
            strict: false,
          },
        ],
      });
    });

    it('keeps reasoning items as providerContent and sends them back unchanged with their turn', async () => {
      const client = new OpenAIModelClient({ client: sdk, api: 'responses' });
      const calls = [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }];
      server.enqueue(
        responsesReply({ reasoning: { id: 'rs_1', encrypted: 'opaque==' }, calls }),
        responsesReply({ text: ['Cold.'] }),
      );
      const first = await client.step(request([{ role: 'user', content: 'Weather?' }], [weatherTool]));
      expect(first.providerContent?.provider).toBe('openai');
      const output = first.providerContent?.blocks ?? [];
      expect(output).toEqual([
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque==' },
        {
          type: 'function_call',
          id: 'fc_test_0',
          call_id: 'call_0',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
          status: 'completed',
        },
      ]);
      // Stored and reloaded (a durable run in another process): plain JSON is enough.
      const stored = JSON.parse(JSON.stringify(first.providerContent));
      await client.step(
        request(
          [
            { role: 'user', content: 'Weather?' },
            { role: 'assistant', content: first.text, toolCalls: first.toolCalls, providerContent: stored },
            { role: 'tool', toolCallId: 'call_0', toolName: 'get_weather', content: 'cold', isError: false },
          ],
          [weatherTool],
        ),
      );
      expect(server.requests[1].body.input).toEqual([
        { role: 'user', content: 'Weather?' },
        ...output,
        { type: 'function_call_output', call_id: 'call_0', output: 'cold' },
      ]);
    });

    it('rebuilds a turn whose stored content belongs to other tool calls', async () => {
      const client = new OpenAIModelClient({ client: sdk, api: 'responses' });
      server.enqueue(responsesReply({ text: ['ok'] }));
      const providerContent: ProviderContent = {
        provider: 'openai',
        blocks: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'function_call', call_id: 'call_9', name: 'x', arguments: '{}' },
        ],
      };
      await client.step(
        request([
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_0', name: 'get_weather', arguments: '{}' }],
            providerContent,
          },
        ]),
      );
      expect(server.requests[0].body.input).toEqual([
        { type: 'function_call', call_id: 'call_0', name: 'get_weather', arguments: '{}' },
      ]);
    });
  });

  describe.each(apis)('answers (%s)', (api) => {
    const step = (answer: ScriptedAnswer, tools: readonly LlmTool[] = [weatherTool]): Promise<ModelResponse> => {
      server.enqueue(replyOf(api, answer));
      return new OpenAIModelClient({ client: sdk, api }).step(request([{ role: 'user', content: 'Hi' }], tools));
    };

    it('maps text, usage and model', async () => {
      const response = await step({ text: ['Hello ', 'there.'], usage: { input: 30, output: 4 }, model: 'gpt-answer' });
      expect(response).toEqual({
        text: 'Hello there.',
        toolCalls: [],
        stopReason: 'end_turn',
        usage: { inputTokens: 30, outputTokens: 4 },
        model: 'gpt-answer',
      });
    });

    it('maps parallel tool calls in order, keeping their argument text', async () => {
      const response = await step({
        calls: [
          { id: 'call_0', name: 'get_weather', pieces: ['{"city":"Paris"}'] },
          { id: 'call_1', name: 'get_weather', pieces: ['{"city":"Rome","unit":"C"}'] },
        ],
      });
      expect(response.stopReason).toBe('tool_use');
      expect(response.toolCalls).toEqual([
        { id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Rome","unit":"C"}' },
      ]);
    });

    it('maps a refusal to stop reason refusal with its message as the text', async () => {
      const response = await step({ refusal: ["I can't help with that."] });
      expect(response.stopReason).toBe('refusal');
      expect(response.text).toBe("I can't help with that.");
      expect(response.toolCalls).toEqual([]);
    });

    it('maps an answer cut at the token limit to max_tokens, keeping the cut tool call', async () => {
      const answer: ScriptedAnswer =
        api === 'chat'
          ? { calls: [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":"Par'] }], finish: 'length' }
          : {
              calls: [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":"Par'] }],
              status: 'incomplete',
              incompleteReason: 'max_output_tokens',
            };
      const response = await step(answer);
      expect(response.stopReason).toBe('max_tokens');
      expect(response.toolCalls).toEqual([{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Par' }]);
    });

    it('maps a content filter stop to refusal', async () => {
      const answer: ScriptedAnswer =
        api === 'chat'
          ? { text: [''], finish: 'content_filter' }
          : { text: [''], status: 'incomplete', incompleteReason: 'content_filter' };
      expect((await step(answer)).stopReason).toBe('refusal');
    });

    it('sends call_0 of every turn back in order: ids reused across turns stay distinct messages', async () => {
      const client = new OpenAIModelClient({ client: sdk, api });
      const call = (city: string): ScriptedAnswer => ({
        calls: [{ id: 'call_0', name: 'get_weather', pieces: [`{"city":"${city}"}`] }],
      });
      server.enqueue(replyOf(api, call('Paris')), replyOf(api, call('Rome')), replyOf(api, { text: ['Done.'] }));
      const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris, then Rome?' }];
      for (const city of ['Paris', 'Rome']) {
        const response = await client.step(request(messages, [weatherTool]));
        expect(response.toolCalls).toEqual([{ id: 'call_0', name: 'get_weather', arguments: `{"city":"${city}"}` }]);
        messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
        messages.push({
          role: 'tool',
          toolCallId: 'call_0',
          toolName: 'get_weather',
          content: `${city}: sunny`,
          isError: false,
        });
      }
      expect((await client.step(request(messages, [weatherTool]))).text).toBe('Done.');
      const last = server.requests[2].body;
      const sent =
        api === 'chat'
          ? last.messages.slice(1).map((message: any) => message.tool_calls?.[0]?.function.arguments ?? message.content)
          : last.input.slice(1).map((item: any) => item.arguments ?? item.output);
      expect(sent).toEqual(['{"city":"Paris"}', 'Paris: sunny', '{"city":"Rome"}', 'Rome: sunny']);
    });
  });
});
