import OpenAI from 'openai';
import { LlmTool } from '../../../lib/contract/llm-tool';
import { ModelStreamEvent } from '../../../lib/model/model-stream';
import { ModelRequest } from '../../../lib/model/model-types';
import { ModelApiError } from '../../../lib';
import { OpenAIModelClient } from '../../../lib/model/openai';
import {
  chatChunks,
  chatReply,
  chatStreamReply,
  responsesEvents,
  responsesReply,
  responsesStreamReply,
  ScriptedAnswer,
} from '../../support/openai-api-fixtures';
import { OpenAIApiServer, ScriptedReply, startOpenAIApiServer } from '../../support/openai-api-server';

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

type Api = 'chat' | 'responses';
const streamReply = (api: Api, answer: ScriptedAnswer, gapMs?: number): ScriptedReply =>
  api === 'chat' ? chatStreamReply(answer, gapMs) : responsesStreamReply(answer, gapMs);
const wholeReply = (api: Api, answer: ScriptedAnswer): ScriptedReply =>
  api === 'chat' ? chatReply(answer) : responsesReply(answer);
const eventsOf = (api: Api, answer: ScriptedAnswer): unknown[] =>
  api === 'chat' ? chatChunks(answer) : responsesEvents(answer);

describe.each<Api>(['chat', 'responses'])('OpenAIModelClient.streamStep (%s)', (api) => {
  let server: OpenAIApiServer;
  let client: OpenAIModelClient;

  beforeEach(async () => {
    server = await startOpenAIApiServer();
    client = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api,
    });
  });

  afterEach(async () => {
    await server.close();
  });

  function request(signal: AbortSignal = new AbortController().signal): ModelRequest {
    return { messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }], tools: [weatherTool], signal };
  }

  async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
    const events: ModelStreamEvent[] = [];
    for await (const event of iterable) events.push(event);
    return events;
  }

  async function failure(
    iterable: AsyncIterable<ModelStreamEvent>,
    seen: ModelStreamEvent[] = [],
  ): Promise<ModelApiError> {
    const error = await (async () => {
      for await (const event of iterable) seen.push(event);
    })().then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(ModelApiError.isInstance(error)).toBe(true);
    return error as ModelApiError;
  }

  const parallel: ScriptedAnswer = {
    text: ['Let me ', 'check.'],
    calls: [
      { id: 'call_0', name: 'get_weather', pieces: ['{"ci', 'ty":"Pa', 'ris"}'] },
      { id: 'call_1', name: 'get_weather', pieces: ['{"city"', ':"Rome"}'] },
    ],
  };

  it('streams text, then parallel tool calls whose arguments arrive in pieces, then the whole response as step() maps it', async () => {
    server.enqueue(streamReply(api, parallel, 2), wholeReply(api, parallel));
    const events = await collect(client.streamStep(request()));
    const whole = await client.step(request());

    expect(server.requests[0].body.stream).toBe(true);
    if (api === 'chat') expect(server.requests[0].body.stream_options).toEqual({ include_usage: true });
    expect(events.filter((event) => event.type === 'text_delta')).toEqual([
      { type: 'text_delta', text: 'Let me ' },
      { type: 'text_delta', text: 'check.' },
    ]);
    expect(events.filter((event) => event.type === 'tool_call_started')).toEqual([
      { type: 'tool_call_started', index: 0, id: 'call_0', name: 'get_weather' },
      { type: 'tool_call_started', index: 1, id: 'call_1', name: 'get_weather' },
    ]);
    for (const [index, call] of parallel.calls!.entries()) {
      const pieces = events.flatMap((event) =>
        event.type === 'tool_call_delta' && event.index === index ? [event.argumentsDelta] : [],
      );
      expect(pieces).toEqual(call.pieces);
    }
    const last = events[events.length - 1];
    expect(events.filter((event) => event.type === 'response')).toHaveLength(1);
    expect(last).toEqual({ type: 'response', response: whole });
    expect(whole).toEqual({
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Rome"}' },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 11, outputTokens: 7 },
      model: 'gpt-test',
    });
  });

  it('marks the calls of tools sent strict, as step() does', async () => {
    const strict = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api,
      strict: true,
    });
    server.enqueue(
      streamReply(api, { calls: [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":', '"Oslo"}'] }] }),
    );
    const events = await collect(strict.streamStep(request()));
    const last = events[events.length - 1];
    expect(last.type === 'response' && last.response.toolCalls).toEqual([
      { id: 'call_0', name: 'get_weather', arguments: '{"city":"Oslo"}', nullsAreAbsent: true },
    ]);
  });

  it('streams a refusal as text and ends with stop reason refusal', async () => {
    server.enqueue(streamReply(api, { refusal: ["I can't ", 'help.'] }));
    const events = await collect(client.streamStep(request()));
    expect(events).toEqual([
      { type: 'text_delta', text: "I can't " },
      { type: 'text_delta', text: 'help.' },
      {
        type: 'response',
        response: {
          text: "I can't help.",
          toolCalls: [],
          stopReason: 'refusal',
          usage: { inputTokens: 11, outputTokens: 7 },
          model: 'gpt-test',
        },
      },
    ]);
  });

  it('ends a stream cut at the token limit with max_tokens and the cut call', async () => {
    const cut: ScriptedAnswer =
      api === 'chat'
        ? { calls: [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":', '"Par'] }], finish: 'length' }
        : {
            calls: [{ id: 'call_0', name: 'get_weather', pieces: ['{"city":', '"Par'] }],
            status: 'incomplete',
            incompleteReason: 'max_output_tokens',
          };
    server.enqueue(streamReply(api, cut));
    const events = await collect(client.streamStep(request()));
    const last = events[events.length - 1];
    expect(last.type === 'response' && last.response.stopReason).toBe('max_tokens');
    expect(last.type === 'response' && last.response.toolCalls).toEqual([
      { id: 'call_0', name: 'get_weather', arguments: '{"city":"Par' },
    ]);
  });

  it('an abort mid-stream rejects with aborted, after the deltas already seen, and closes the connection', async () => {
    const events = eventsOf(api, parallel);
    server.enqueue({ kind: 'sse', events: events.slice(0, 4), named: api === 'responses', end: 'hang' });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const iterable = {
      [Symbol.asyncIterator]: () => {
        const iterator = client.streamStep(request(controller.signal))[Symbol.asyncIterator]();
        return {
          next: async () => {
            const result = await iterator.next();
            if (!result.done && result.value.type === 'text_delta' && result.value.text === 'check.')
              controller.abort();
            return result;
          },
        };
      },
    };
    const error = await failure(iterable, seen);
    expect(error.code).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(seen.map((event) => event.type)).toEqual(['text_delta', 'text_delta']);
    await server.waitForHangUp();
  });

  it('an abort before the answer starts rejects with aborted', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const running = failure(client.streamStep(request(controller.signal)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect((await running).code).toBe('aborted');
    await server.waitForHangUp();
  });

  it('a connection cut mid-stream is a retryable connection error', async () => {
    server.enqueue({
      kind: 'sse',
      events: eventsOf(api, parallel).slice(0, 4),
      named: api === 'responses',
      end: 'cut',
    });
    const error = await failure(client.streamStep(request()));
    expect(error.code).toBe('connection');
    expect(error.retryable).toBe(true);
  });

  it('a stream that ends cleanly without finishing is malformed_response', async () => {
    server.enqueue({ kind: 'sse', events: eventsOf(api, parallel).slice(0, 4), named: api === 'responses' });
    const error = await failure(client.streamStep(request()));
    expect(error.code).toBe('malformed_response');
  });

  it('an HTTP failure of the streaming request maps as for step()', async () => {
    server.enqueue({
      kind: 'error',
      status: 429,
      message: 'Slow down.',
      type: 'requests',
      headers: { 'retry-after': '3' },
    });
    const error = await failure(client.streamStep(request()));
    expect(error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
      detail: 'Slow down.',
    });
  });

  it('an error event inside the stream is a ModelApiError', async () => {
    const events =
      api === 'chat'
        ? [
            ...chatChunks(parallel).slice(0, 2),
            { error: { message: 'The server had an error.', type: 'server_error' } },
          ]
        : [
            ...responsesEvents(parallel).slice(0, 2),
            { type: 'error', code: 'server_error', message: 'The server had an error.', sequence_number: 3 },
          ];
    server.enqueue({ kind: 'sse', events, named: api === 'responses' });
    const error = await failure(client.streamStep(request()));
    expect(error).toMatchObject({ code: 'server_error', retryable: true, detail: 'The server had an error.' });
  });

  it('a consumer that stops iterating cancels the request', async () => {
    server.enqueue({
      kind: 'sse',
      events: eventsOf(api, parallel).slice(0, 3),
      named: api === 'responses',
      end: 'hang',
    });
    for await (const event of client.streamStep(request())) {
      if (event.type === 'text_delta') break;
    }
    await server.waitForHangUp();
  });
});
