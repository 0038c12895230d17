import { createOpenAI } from '@ai-sdk/openai';
import { LlmTool } from '../../../lib/contract/llm-tool';
import { AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { ModelApiError } from '../../../lib';
import { ModelStreamEvent } from '../../../lib/model/model-stream';
import { ChatMessage, ModelRequest } from '../../../lib/model/model-types';
import {
  ChatCompletionsServer,
  completion,
  startChatCompletionsServer,
  streamedCompletion,
} from '../../support/ai-sdk-openai-server';

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

async function failure(promise: Promise<unknown>): Promise<ModelApiError> {
  try {
    await promise;
  } catch (error) {
    if (ModelApiError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ModelApiError');
}

describe('AiSdkModelClient over @ai-sdk/openai against a local Chat Completions server', () => {
  let server: ChatCompletionsServer;
  let client: AiSdkModelClient;

  beforeEach(async () => {
    server = await startChatCompletionsServer();
    client = new AiSdkModelClient(createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL }).chat('gpt-test'), {
      maxOutputTokens: 300,
    });
  });

  afterEach(async () => {
    await server.close();
  });

  const conversation: ChatMessage[] = [
    { role: 'user', content: 'Weather in Tokyo?' },
    {
      role: 'assistant',
      content: 'Checking.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' }],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'Tokyo is 22 degrees.', isError: false },
  ];

  it('sends the conversation and the tools on the wire and maps a text answer', async () => {
    server.enqueue(completion({ text: 'It is 22 degrees.', usage: { prompt_tokens: 40, completion_tokens: 6 } }));
    const response = await client.step({ ...request(conversation, [weatherTool]), system: 'Be brief.' });
    expect(response).toEqual({
      text: 'It is 22 degrees.',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 40, outputTokens: 6 },
      model: 'gpt-test',
    });

    const sent = server.requests[0];
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toMatchObject({ model: 'gpt-test', max_tokens: 300 });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Tokyo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Tokyo is 22 degrees.' },
    ]);
    expect(sent.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.inputSchema },
      },
    ]);
  });

  it('maps parallel tool calls, and length and content_filter stops', async () => {
    server.enqueue(
      completion({
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          { id: 'call_b', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
      }),
      completion({
        text: 'cut',
        toolCalls: [{ id: 'call_c', name: 'get_weather', arguments: '{"city":"To' }],
        finishReason: 'length',
      }),
      completion({ text: '', finishReason: 'content_filter' }),
    );
    const parallel = await client.step(request([{ role: 'user', content: 'Tokyo and Paris?' }], [weatherTool]));
    expect(parallel.stopReason).toBe('tool_use');
    expect(parallel.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
      { id: 'call_b', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    const cut = await client.step(request([{ role: 'user', content: 'x' }], [weatherTool]));
    expect(cut.stopReason).toBe('max_tokens');
    expect(cut.toolCalls).toEqual([{ id: 'call_c', name: 'get_weather', arguments: '{"city":"To' }]);
    expect((await client.step(request([{ role: 'user', content: 'x' }]))).stopReason).toBe('refusal');
  });

  it('streams text and tool-call arguments arriving in pieces, then the whole response', async () => {
    server.enqueue(
      streamedCompletion({
        text: 'Let me check.',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          { id: 'call_b', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
        usage: { prompt_tokens: 21, completion_tokens: 13 },
      }),
    );
    const events = await collect(
      client.streamStep(request([{ role: 'user', content: 'Tokyo and Paris?' }], [weatherTool])),
    );
    expect(server.requests[0].body).toMatchObject({ stream: true });
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('Let me check.');
    expect(events.filter((event) => event.type === 'tool_call_started')).toEqual([
      { type: 'tool_call_started', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool_call_started', index: 1, id: 'call_b', name: 'get_weather' },
    ]);
    for (const [index, json] of [
      [0, '{"city":"Tokyo"}'],
      [1, '{"city":"Paris"}'],
    ] as const) {
      const deltas = events.flatMap((event) =>
        event.type === 'tool_call_delta' && event.index === index ? [event.argumentsDelta] : [],
      );
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(json);
    }
    expect(events[events.length - 1]).toEqual({
      type: 'response',
      response: {
        text: 'Let me check.',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          { id: 'call_b', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
        stopReason: 'tool_use',
        usage: { inputTokens: 21, outputTokens: 13 },
        model: 'gpt-test',
      },
    });
  });

  it.each<[string, number, string, Partial<ModelApiError>]>([
    ['400', 400, 'invalid_request_error', { code: 'invalid_request', retryable: false }],
    ['401', 401, 'invalid_api_key', { code: 'authentication', retryable: false }],
    ['403', 403, 'permission_denied', { code: 'authentication', retryable: false }],
    ['404', 404, 'not_found', { code: 'invalid_request', retryable: false }],
    ['422', 422, 'invalid_request_error', { code: 'invalid_request', retryable: false }],
    ['500', 500, 'server_error', { code: 'server_error', retryable: true }],
    ['503', 503, 'server_error', { code: 'server_error', retryable: true }],
    ['529', 529, 'overloaded_error', { code: 'overloaded', retryable: true }],
  ])(
    'HTTP %s maps to the same code as every client, with status, request id and the API error type',
    async (_name, status, type, expected) => {
      server.enqueue({ kind: 'error', status, type, message: `scripted ${status}` });
      const error = await failure(client.step(request([{ role: 'user', content: 'Hi' }])));
      expect(error).toMatchObject({
        ...expected,
        status,
        requestId: `req_${status}`,
        apiErrorType: type,
        provider: 'openai.chat',
        detail: `scripted ${status}`,
      });
    },
  );

  it('429 is rate_limited with retry-after; a streamed request fails the same way', async () => {
    server.enqueue(
      {
        kind: 'error',
        status: 429,
        type: 'rate_limit_exceeded',
        message: 'slow down',
        headers: { 'retry-after': '2' },
      },
      {
        kind: 'error',
        status: 429,
        type: 'rate_limit_exceeded',
        message: 'slow down',
        headers: { 'retry-after-ms': '150' },
      },
    );
    expect(await failure(client.step(request([{ role: 'user', content: 'Hi' }])))).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(await failure(collect(client.streamStep(request([{ role: 'user', content: 'Hi' }]))))).toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 150,
    });
  });

  it('a body that is not a completion is malformed_response; a reset connection and a closed port are connection', async () => {
    server.enqueue(
      { kind: 'malformed', body: '<html>gateway</html>' },
      { kind: 'json', body: { choices: 'none' } },
      { kind: 'reset' },
    );
    expect(await failure(client.step(request([{ role: 'user', content: 'Hi' }])))).toMatchObject({
      code: 'malformed_response',
      retryable: false,
    });
    expect(await failure(client.step(request([{ role: 'user', content: 'Hi' }])))).toMatchObject({
      code: 'malformed_response',
    });
    expect(await failure(client.step(request([{ role: 'user', content: 'Hi' }])))).toMatchObject({
      code: 'connection',
      retryable: true,
    });

    const closed = await startChatCompletionsServer();
    await closed.close();
    const offline = new AiSdkModelClient(createOpenAI({ apiKey: 'k', baseURL: closed.baseURL }).chat('gpt-test'));
    expect(await failure(offline.step(request([{ role: 'user', content: 'Hi' }])))).toMatchObject({
      code: 'connection',
      detail: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('a connection cut mid-stream is connection, after the deltas that arrived', async () => {
    const reply = streamedCompletion({ text: 'A long answer that is cut.' });
    server.enqueue({ ...reply, cutAfter: 3 });
    const seen: ModelStreamEvent[] = [];
    const iterate = async (): Promise<void> => {
      for await (const event of client.streamStep(request([{ role: 'user', content: 'Hi' }]))) seen.push(event);
    };
    expect(await failure(iterate())).toMatchObject({ code: 'connection', retryable: true });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((event) => event.type === 'text_delta')).toBe(true);
  });

  it('an error chunk in the stream rejects with the API message', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        {
          error: {
            message: 'The server had an error while processing your request.',
            type: 'server_error',
            code: null,
          },
        },
      ],
    });
    expect(await failure(collect(client.streamStep(request([{ role: 'user', content: 'Hi' }]))))).toMatchObject({
      code: 'server_error',
      detail: 'The server had an error while processing your request.',
    });
  });

  it('an abort while waiting for the answer, or mid-stream, is aborted and closes the connection', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = client.step(request([{ role: 'user', content: 'Hi' }], [], controller.signal));
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await failure(pending)).toMatchObject({ code: 'aborted', retryable: false });
    await server.waitForHangUp();

    const second = await startChatCompletionsServer();
    try {
      const streaming = new AiSdkModelClient(createOpenAI({ apiKey: 'k', baseURL: second.baseURL }).chat('gpt-test'));
      second.enqueue({ ...streamedCompletion({ text: 'Never finished.' }), hangAfter: 2 });
      const midStream = new AbortController();
      const seen: ModelStreamEvent[] = [];
      const iterate = async (): Promise<void> => {
        for await (const event of streaming.streamStep(
          request([{ role: 'user', content: 'Hi' }], [], midStream.signal),
        )) {
          seen.push(event);
          midStream.abort();
        }
      };
      expect(await failure(iterate())).toMatchObject({ code: 'aborted' });
      expect(seen).toEqual([{ type: 'text_delta', text: 'Neve' }]);
      await second.waitForHangUp();
    } finally {
      await second.close();
    }
  });
});
