import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { Field, LlmAgentStreamEvent, ModelApiError, Tool } from '../../../lib';
import { ModelStreamEvent } from '../../../lib/model';
import { ModelRequest } from '../../../lib/model/model-types';
import {
  MessagesApiServer,
  messageBody,
  messageReply,
  startMessagesApiServer,
} from '../../support/messages-api-server';

@Tool({ name: 'get_weather', description: 'Get the current weather for a city.' })
class GetWeather {
  static invocations = 0;
  @Field({ description: 'City name.' }) city!: string;
  invoke(): string {
    GetWeather.invocations++;
    return `${this.city} is 22 degrees.`;
  }
}

const toolTurn = {
  content: [
    { type: 'text', text: 'Let me check the weather.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Tokyo' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 20, output_tokens: 10 },
};
const answerTurn = {
  content: [{ type: 'text', text: 'Tokyo is 22 degrees today.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 40, output_tokens: 6 },
};

describe('AnthropicModelClient.streamStep (real SDK, local server speaking SSE)', () => {
  let server: MessagesApiServer;
  let client: AnthropicModelClient;

  beforeEach(async () => {
    server = await startMessagesApiServer();
    client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      maxTokens: 512,
    });
    GetWeather.invocations = 0;
  });
  afterEach(() => server.close());

  function request(signal = new AbortController().signal): ModelRequest {
    return { messages: [{ role: 'user', content: 'Weather in Tokyo?' }], tools: [], signal };
  }

  async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
    const events: ModelStreamEvent[] = [];
    for await (const event of iterable) events.push(event);
    return events;
  }

  it('sends stream: true, yields the deltas, and ends with the response step() returns for the same answer', async () => {
    server.enqueue(messageReply(toolTurn), messageReply(toolTurn));
    const events = await collect(client.streamStep(request()));
    const stepped = await client.step(request());
    expect(server.requests[0].body.stream).toBe(true);
    expect(server.requests[1].body.stream).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual([
      'text_delta',
      'text_delta',
      'text_delta',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_delta',
      'response',
    ]);
    expect(events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('')).toBe(
      'Let me check the weather.',
    );
    expect(events[3]).toEqual({ type: 'tool_call_started', index: 0, id: 'toolu_1', name: 'get_weather' });
    expect(events.flatMap((event) => (event.type === 'tool_call_delta' ? [event.argumentsDelta] : [])).join('')).toBe(
      '{"city":"Tokyo"}',
    );
    expect(events.at(-1)).toEqual({ type: 'response', response: stepped });
  });

  it('assembles thinking blocks with their signatures, to send them back unchanged', async () => {
    const thinking = { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-123' };
    server.enqueue(messageReply({ ...toolTurn, content: [thinking, ...toolTurn.content] }));
    const events = await collect(client.streamStep(request()));
    const last = events.at(-1)!;
    expect(last.type === 'response' && last.response.providerContent?.blocks[0]).toEqual(thinking);
  });

  it('reports a stream cut by the server as a retryable connection error', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 6, then: 'cut' });
    const error = await collect(client.streamStep(request())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelApiError);
    expect(error).toMatchObject({ code: 'connection', retryable: true });
  });

  it('reports a stream that ends before message_stop as a connection error, never as an answer', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 9, then: 'end' });
    await expect(collect(client.streamStep(request()))).rejects.toMatchObject({
      code: 'connection',
      detail: expect.stringContaining('message_stop'),
    });
  });

  it('maps an error event mid-stream like an HTTP error of its type', async () => {
    server.enqueue({ kind: 'sse', events: 3, then: { error: { type: 'overloaded_error', message: 'Overloaded' } } });
    await expect(collect(client.streamStep(request()))).rejects.toMatchObject({ code: 'overloaded', retryable: true });
  });

  it('ends with aborted when the request is aborted mid-stream, and closes the connection', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 4, then: 'hang' });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of client.streamStep(request(controller.signal))) {
        seen.push(event.type);
        controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(['text_delta']);
    expect(error).toMatchObject({ code: 'aborted' });
    await server.waitForHangUp();
  });
});

describe('runner.stream() over AnthropicModelClient (real SDK, local server speaking SSE)', () => {
  let server: MessagesApiServer;
  let client: AnthropicModelClient;

  beforeEach(async () => {
    server = await startMessagesApiServer();
    client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      maxTokens: 512,
    });
    GetWeather.invocations = 0;
  });
  afterEach(() => server.close());

  async function collect(iterable: AsyncIterable<LlmAgentStreamEvent>): Promise<LlmAgentStreamEvent[]> {
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of iterable) events.push(event);
    return events;
  }

  it('streams a tool turn and the answer, and ends with the result complete() gives', async () => {
    server.enqueue(messageReply(toolTurn), messageReply(answerTurn), messageReply(toolTurn), messageReply(answerTurn));
    const runner = client.bindTools(GetWeather);
    const stream = runner.stream('Weather in Tokyo?', { runId: 'same' });
    const events = await collect(stream);
    const completed = await runner.complete('Weather in Tokyo?', { runId: 'same' });
    expect(server.requests.map((request) => request.body.stream)).toEqual([true, true, undefined, undefined]);
    expect(server.requests[1].body.messages).toEqual(server.requests[3].body.messages);
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThanOrEqual(6);
    expect(events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      callId: 'toolu_1',
      outcome: { ok: true, text: 'Tokyo is 22 degrees.' },
    });
    const streamed = await stream.result;
    expect(streamed.text).toBe('Tokyo is 22 degrees today.');
    expect(streamed.messages).toEqual(completed.messages);
    expect(streamed.usage).toEqual(completed.usage);
  });

  it('aborted mid-stream: the stream ends, the started call finishes cancelled and never runs', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 8, then: 'hang' });
    const controller = new AbortController();
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of client.bindTools(GetWeather).stream('Weather?', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool_call_delta') controller.abort();
    }
    expect(GetWeather.invocations).toBe(0);
    expect(events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      callId: 'toolu_1',
      attempts: 0,
      outcome: { ok: false, error: { code: 'cancelled' } },
    });
    const last = events.at(-1)!;
    expect(last.type === 'run_finished' && last.result.stopReason).toBe('aborted');
    await server.waitForHangUp();
  });

  it('a server that cuts the stream: the started call finishes cancelled, then the iteration fails with the connection error', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 8, then: 'cut' });
    const events: LlmAgentStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of client.bindTools(GetWeather).stream('Weather?')) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'connection' });
    expect(GetWeather.invocations).toBe(0);
    expect(events.filter((event) => event.type === 'tool_call_delta').length).toBeGreaterThan(0);
    expect(events.slice(-2).map((event) => event.type)).toEqual(['tool_call_finished', 'step_finished']);
    expect(events.at(-2)).toMatchObject({ callId: 'toolu_1', outcome: { ok: false, error: { code: 'cancelled' } } });
  });

  it('a consumer that leaves the loop aborts the request', async () => {
    server.enqueue({ kind: 'sse', body: messageBody(toolTurn), events: 4, then: 'hang' });
    const stream = client.bindTools(GetWeather).stream('Weather?');
    for await (const event of stream) if (event.type === 'text_delta') break;
    await server.waitForHangUp();
    expect((await stream.result).stopReason).toBe('aborted');
  });
});
