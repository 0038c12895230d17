import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { LlmTool } from '../../../lib/contract/llm-tool';
import { AiSdkLanguageModel, AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { ModelClientOptionsError } from '../../../lib';
import { ModelStreamEvent } from '../../../lib/model/model-stream';
import { ChatMessage, ModelRequest } from '../../../lib/model/model-types';

const weatherTool: LlmTool = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

function usage(input: number, output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function generated(
  content: LanguageModelV3Content[],
  unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' = 'stop',
): LanguageModelV3GenerateResult {
  return {
    content,
    finishReason: { unified, raw: unified },
    usage: usage(12, 5),
    warnings: [],
    response: { modelId: 'mock-model-2026' },
  };
}

function request(
  messages: readonly ChatMessage[],
  tools: readonly LlmTool[] = [],
  signal = new AbortController().signal,
): ModelRequest {
  return { messages, tools, signal };
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const FINISH_TOOL_CALLS: LanguageModelV3StreamPart = {
  type: 'finish',
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: usage(30, 9),
};

describe('AiSdkModelClient with the AI SDK mock model', () => {
  describe('construction', () => {
    it('takes any LanguageModelV3 and names it by its model id', () => {
      const model = new MockLanguageModelV3({ modelId: 'mock-1' });
      const client = new AiSdkModelClient(model);
      expect(client.modelName).toBe('mock-1');
      expect(client.model).toBe(model);
    });

    it('refuses a model id string, a v2 model and options that cannot work, listing every problem', () => {
      expect(() => new AiSdkModelClient('gpt-4o' as unknown as AiSdkLanguageModel)).toThrow(/not the string 'gpt-4o'/);
      const v2 = {
        specificationVersion: 'v2',
        provider: 'p',
        modelId: 'm',
        doGenerate: () => undefined,
        doStream: () => undefined,
      };
      expect(() => new AiSdkModelClient(v2 as unknown as AiSdkLanguageModel)).toThrow(
        /specification "v2"; only LanguageModelV3/,
      );
      let caught: unknown;
      try {
        new AiSdkModelClient(new MockLanguageModelV3(), {
          maxOutputTokens: 0,
          temperature: -1,
          stopSequences: [''],
          headers: { a: 1 as unknown as string },
        });
      } catch (error) {
        caught = error;
      }
      expect(ModelClientOptionsError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({
        code: 'invalid_model_client_options',
        problems: expect.arrayContaining([expect.stringMatching(/maxOutputTokens/)]),
      });
      expect((caught as ModelClientOptionsError).problems).toHaveLength(4);
    });
  });

  describe('step (doGenerate)', () => {
    it('sends the system prompt, the conversation, the tools, the abort signal and the sampling options', async () => {
      const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
      const client = new AiSdkModelClient(model, {
        system: 'default system',
        maxOutputTokens: 256,
        temperature: 0.2,
        stopSequences: ['END'],
        providerOptions: { openai: { parallelToolCalls: false } },
        headers: { 'x-team': 'agents' },
      });
      const controller = new AbortController();
      const messages: ChatMessage[] = [
        { role: 'user', content: 'Weather in Tokyo and Paris?' },
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
            { id: 'call_2', name: 'get_weather', arguments: { city: 'Paris' } },
          ],
        },
        {
          role: 'tool',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          content: 'Tokyo is 22 degrees.',
          isError: false,
        },
        { role: 'tool', toolCallId: 'call_2', toolName: 'get_weather', content: '{"ok":false}', isError: true },
        { role: 'assistant', content: '', toolCalls: [] },
      ];
      await client.step({ system: 'request system', messages, tools: [weatherTool], signal: controller.signal });

      const [options] = model.doGenerateCalls;
      expect(options.prompt).toEqual([
        { role: 'system', content: 'request system' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Tokyo and Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Tokyo' } },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_1',
              toolName: 'get_weather',
              output: { type: 'text', value: 'Tokyo is 22 degrees.' },
            },
            {
              type: 'tool-result',
              toolCallId: 'call_2',
              toolName: 'get_weather',
              output: { type: 'error-text', value: '{"ok":false}' },
            },
          ],
        },
      ]);
      expect(options.tools).toEqual([
        {
          type: 'function',
          name: 'get_weather',
          description: weatherTool.description,
          inputSchema: weatherTool.inputSchema,
        },
      ]);
      expect(options.abortSignal).toBe(controller.signal);
      expect(options).toMatchObject({
        maxOutputTokens: 256,
        temperature: 0.2,
        stopSequences: ['END'],
        providerOptions: { openai: { parallelToolCalls: false } },
        headers: { 'x-team': 'agents' },
      });
    });

    it('uses the default system prompt when the request has none, and sends no tools key without tools', async () => {
      const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
      await new AiSdkModelClient(model, { system: 'be brief' }).step(request([{ role: 'user', content: 'Hi' }]));
      expect(model.doGenerateCalls[0].prompt[0]).toEqual({ role: 'system', content: 'be brief' });
      expect('tools' in model.doGenerateCalls[0]).toBe(false);
    });

    it('maps a text answer with its usage and model', async () => {
      const model = new MockLanguageModelV3({
        doGenerate: generated([
          { type: 'text', text: 'Hello ' },
          { type: 'text', text: 'there.' },
        ]),
      });
      const response = await new AiSdkModelClient(model).step(request([{ role: 'user', content: 'Hi' }]));
      expect(response).toEqual({
        text: 'Hello there.',
        toolCalls: [],
        stopReason: 'end_turn',
        usage: { inputTokens: 12, outputTokens: 5 },
        model: 'mock-model-2026',
      });
    });

    it('maps parallel tool calls in order, their arguments the JSON text (empty text is {})', async () => {
      const model = new MockLanguageModelV3({
        doGenerate: generated(
          [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Tokyo"}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_weather', input: '{"city":"Paris"}' },
            { type: 'tool-call', toolCallId: 'call_3', toolName: 'get_time', input: '' },
          ],
          'tool-calls',
        ),
      });
      const response = await new AiSdkModelClient(model).step(
        request([{ role: 'user', content: 'Hi' }], [weatherTool]),
      );
      expect(response.stopReason).toBe('tool_use');
      expect(response.text).toBe('Checking both.');
      expect(response.toolCalls).toEqual([
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_3', name: 'get_time', arguments: '{}' },
      ]);
      expect(response.providerContent).toBeUndefined();
    });

    it.each([
      ['stop', 'end_turn'],
      ['tool-calls', 'tool_use'],
      ['length', 'max_tokens'],
      ['content-filter', 'refusal'],
      ['error', 'other'],
      ['other', 'other'],
    ] as const)('maps finish reason %s to %s', async (unified, expected) => {
      const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'x' }], unified) });
      expect((await new AiSdkModelClient(model).step(request([{ role: 'user', content: 'Hi' }]))).stopReason).toBe(
        expected,
      );
    });

    it('keeps reasoning and provider metadata as providerContent, and sends them back unchanged for the same turn', async () => {
      const content: LanguageModelV3Content[] = [
        { type: 'reasoning', text: 'The user wants weather.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          input: '{"city":"Tokyo"}',
          providerMetadata: { google: { thoughtSignature: 'ts-1' } },
        },
      ];
      const model = new MockLanguageModelV3({
        doGenerate: [generated(content, 'tool-calls'), generated([{ type: 'text', text: 'done' }])],
      });
      const client = new AiSdkModelClient(model);
      const first = await client.step(request([{ role: 'user', content: 'Weather?' }], [weatherTool]));
      const sentBack = [
        { type: 'reasoning', text: 'The user wants weather.', providerOptions: { anthropic: { signature: 'sig-1' } } },
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          input: { city: 'Tokyo' },
          providerOptions: { google: { thoughtSignature: 'ts-1' } },
        },
      ];
      expect(first.providerContent).toEqual({ provider: 'ai-sdk', blocks: sentBack });

      // As the runner stores it: a JSON round trip, as a durable run in another process would read it back.
      const stored = JSON.parse(JSON.stringify(first.providerContent)) as typeof first.providerContent;
      const assistant: ChatMessage = {
        role: 'assistant',
        content: first.text,
        toolCalls: first.toolCalls,
        providerContent: stored,
      };
      const tool: ChatMessage = {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        content: 'sunny',
        isError: false,
      };
      await client.step(request([{ role: 'user', content: 'Weather?' }, assistant, tool], [weatherTool]));
      expect(model.doGenerateCalls[1].prompt[1]).toEqual({ role: 'assistant', content: sentBack });

      // Another turn's content (other tool-call ids) is not replayed: the message is rebuilt from its own fields.
      const edited: ChatMessage = {
        ...assistant,
        toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      };
      await client.step(request([{ role: 'user', content: 'Weather?' }, edited], [weatherTool])).catch(() => undefined);
      expect(model.doGenerateCalls[2].prompt[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'call_9', toolName: 'get_weather', input: { city: 'Oslo' } },
        ],
      });
    });

    it.each(['[1,2]', '{"city":', '"Oslo"', '{"__proto__":'])(
      'sends a call whose arguments %j are not a JSON object with input {}, stored parts too',
      async (text) => {
        const model = new MockLanguageModelV3({ doGenerate: generated([]) });
        const call = { id: 'c', name: 'get_weather', arguments: text };
        const stored = {
          provider: 'ai-sdk',
          blocks: [
            {
              type: 'tool-call',
              toolCallId: 'c',
              toolName: 'get_weather',
              input: text,
              providerOptions: { openai: { itemId: 'fc_1' } },
            },
          ],
        };
        const client = new AiSdkModelClient(model);
        await client.step(request([{ role: 'assistant', content: '', toolCalls: [call] }]));
        await client.step(request([{ role: 'assistant', content: '', toolCalls: [call], providerContent: stored }]));
        expect(model.doGenerateCalls[0].prompt[0]).toEqual({
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'get_weather', input: {} }],
        });
        expect(model.doGenerateCalls[1].prompt[0]).toEqual({
          role: 'assistant',
          content: [{ ...stored.blocks[0], input: {} }],
        });
      },
    );

    it('reports a result that is not a generate result as malformed_response', async () => {
      const model = new MockLanguageModelV3({
        doGenerate: async () =>
          ({ content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: {} }] }) as never,
      });
      await expect(new AiSdkModelClient(model).step(request([{ role: 'user', content: 'Hi' }]))).rejects.toMatchObject({
        code: 'malformed_response',
        detail: expect.stringContaining('not JSON text'),
      });
    });

    it('an abort rejects with aborted at once, even when the model ignores its signal', async () => {
      const model = new MockLanguageModelV3({ doGenerate: () => new Promise<never>(() => undefined) });
      const controller = new AbortController();
      const pending = new AiSdkModelClient(model).step(
        request([{ role: 'user', content: 'Hi' }], [], controller.signal),
      );
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'ModelApiError', code: 'aborted', retryable: false });
      await expect(
        new AiSdkModelClient(model).step(request([{ role: 'user', content: 'Hi' }], [], controller.signal)),
      ).rejects.toMatchObject({ code: 'aborted' });
    });
  });

  describe('streamStep (doStream)', () => {
    function streaming(parts: LanguageModelV3StreamPart[]): MockLanguageModelV3 {
      return new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
    }

    it('yields text deltas, then the whole response', async () => {
      const model = streaming([
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', modelId: 'mock-stream-1' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hello ' },
        { type: 'text-delta', id: 't', delta: 'there.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(7, 3) },
      ]);
      const events = await collect(new AiSdkModelClient(model).streamStep(request([{ role: 'user', content: 'Hi' }])));
      expect(events).toEqual([
        { type: 'text_delta', text: 'Hello ' },
        { type: 'text_delta', text: 'there.' },
        {
          type: 'response',
          response: {
            text: 'Hello there.',
            toolCalls: [],
            stopReason: 'end_turn',
            usage: { inputTokens: 7, outputTokens: 3 },
            model: 'mock-stream-1',
          },
        },
      ]);
    });

    it('streams parallel tool calls with argument deltas by index; the final tool-call input wins', async () => {
      const model = streaming([
        { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call_1', delta: '{"city":' },
        { type: 'tool-input-start', id: 'call_2', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call_2', delta: '{"city":"Paris"}' },
        { type: 'tool-input-delta', id: 'call_1', delta: '"Tokyo"}' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Tokyo"}' },
        { type: 'tool-input-end', id: 'call_2' },
        { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_weather', input: '{"city":"Paris"}' },
        // A provider that does not stream a call's input sends only the final part.
        { type: 'tool-call', toolCallId: 'call_3', toolName: 'get_time', input: '{"city":"Oslo"}' },
        FINISH_TOOL_CALLS,
      ]);
      const events = await collect(
        new AiSdkModelClient(model).streamStep(request([{ role: 'user', content: 'Hi' }], [weatherTool])),
      );
      expect(events.slice(0, -1)).toEqual([
        { type: 'tool_call_started', index: 0, id: 'call_1', name: 'get_weather' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
        { type: 'tool_call_started', index: 1, id: 'call_2', name: 'get_weather' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Paris"}' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '"Tokyo"}' },
        { type: 'tool_call_started', index: 2, id: 'call_3', name: 'get_time' },
        { type: 'tool_call_delta', index: 2, argumentsDelta: '{"city":"Oslo"}' },
      ]);
      expect(events[events.length - 1]).toEqual({
        type: 'response',
        response: {
          text: '',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
            { id: 'call_2', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { id: 'call_3', name: 'get_time', arguments: '{"city":"Oslo"}' },
          ],
          stopReason: 'tool_use',
          usage: { inputTokens: 30, outputTokens: 9 },
        },
      });
    });

    it('collects streamed reasoning with its metadata into providerContent', async () => {
      const model = streaming([
        { type: 'reasoning-start', id: 'r', providerMetadata: { openai: { itemId: 'rs_1' } } },
        { type: 'reasoning-delta', id: 'r', delta: 'Think.' },
        { type: 'reasoning-delta', id: 'r', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Done.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 1) },
      ]);
      const events = await collect(new AiSdkModelClient(model).streamStep(request([{ role: 'user', content: 'Hi' }])));
      expect(events.map((event) => event.type)).toEqual(['text_delta', 'response']);
      const last = events[1] as Extract<ModelStreamEvent, { type: 'response' }>;
      expect(last.response.providerContent).toEqual({
        provider: 'ai-sdk',
        blocks: [
          {
            type: 'reasoning',
            text: 'Think.',
            providerOptions: { openai: { itemId: 'rs_1' }, anthropic: { signature: 'sig' } },
          },
          { type: 'text', text: 'Done.' },
        ],
      });
    });

    it('an error part rejects the iteration with a typed error and cancels the stream', async () => {
      let cancelled = false;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hel' });
          controller.enqueue({ type: 'error', error: { message: 'The server had an error', type: 'server_error' } });
        },
        cancel() {
          cancelled = true;
        },
      });
      const model = new MockLanguageModelV3({ doStream: async () => ({ stream }) });
      const seen: ModelStreamEvent[] = [];
      const iterate = async (): Promise<void> => {
        for await (const event of new AiSdkModelClient(model).streamStep(request([{ role: 'user', content: 'Hi' }])))
          seen.push(event);
      };
      await expect(iterate()).rejects.toMatchObject({
        name: 'ModelApiError',
        code: 'server_error',
        detail: 'The server had an error',
        apiErrorType: 'server_error',
      });
      expect(seen).toEqual([{ type: 'text_delta', text: 'Hel' }]);
      expect(cancelled).toBe(true);
    });

    it('a stream that ends without a finish part is malformed_response', async () => {
      const model = streaming([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
      ]);
      await expect(
        collect(new AiSdkModelClient(model).streamStep(request([{ role: 'user', content: 'Hi' }]))),
      ).rejects.toMatchObject({
        code: 'malformed_response',
        detail: 'the stream ended without a `finish` part',
      });
    });

    it('an abort mid-stream rejects with aborted and cancels the provider stream; so does a consumer that stops iterating', async () => {
      const cancels: unknown[] = [];
      const open = (): ReadableStream<LanguageModelV3StreamPart> =>
        new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'first' });
          },
          cancel(reason) {
            cancels.push(reason);
          },
        });
      const model = new MockLanguageModelV3({ doStream: async () => ({ stream: open() }) });
      const client = new AiSdkModelClient(model);

      const controller = new AbortController();
      const seen: ModelStreamEvent[] = [];
      const iterate = async (): Promise<void> => {
        for await (const event of client.streamStep(
          request([{ role: 'user', content: 'Hi' }], [], controller.signal),
        )) {
          seen.push(event);
          controller.abort();
        }
      };
      await expect(iterate()).rejects.toMatchObject({ name: 'ModelApiError', code: 'aborted' });
      expect(seen).toEqual([{ type: 'text_delta', text: 'first' }]);
      expect(cancels).toHaveLength(1);

      for await (const event of client.streamStep(request([{ role: 'user', content: 'Hi' }]))) {
        expect(event).toEqual({ type: 'text_delta', text: 'first' });
        break;
      }
      expect(cancels).toHaveLength(2);
    });
  });
});
