import Anthropic from '@anthropic-ai/sdk';
import { WuweError } from '../../../lib/errors/wuwe-error';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { ModelApiError } from '../../../lib';
import { ModelRequest } from '../../../lib/model/model-types';
import {
  MessagesApiServer,
  messageBody,
  messageReply,
  startMessagesApiServer,
} from '../../support/messages-api-server';

describe('AnthropicModelClient errors', () => {
  let server: MessagesApiServer;

  beforeEach(async () => {
    server = await startMessagesApiServer();
  });

  afterEach(async () => {
    await server.close();
  });

  function clientWithRetries(maxRetries: number): AnthropicModelClient {
    return new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries }),
    });
  }

  function request(signal: AbortSignal = new AbortController().signal): ModelRequest {
    return { messages: [{ role: 'user', content: 'Hi' }], tools: [], signal };
  }

  async function failure(promise: Promise<unknown>): Promise<ModelApiError> {
    const error: unknown = await promise.then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(ModelApiError);
    expect(WuweError.isInstance(error)).toBe(true);
    return error as ModelApiError;
  }

  it('lets the SDK retry a 429 when its maxRetries allows, and answers from the retry', async () => {
    server.enqueue({ kind: 'rate_limited', retryAfterSeconds: 0.01, requestId: 'req_429' }, messageReply({}, 'req_ok'));

    const response = await clientWithRetries(1).step(request());

    expect(response.text).toBe('Hello.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body).toEqual(server.requests[1].body);
    expect(server.requests[1].headers['x-stainless-retry-count']).toBe('1');
  });

  it('reports a 429 the SDK may not retry as retryable rate_limited, with the wait the API asked for', async () => {
    server.enqueue({ kind: 'rate_limited', retryAfterSeconds: 7, requestId: 'req_429' });

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.requestId).toBe('req_429');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.apiErrorType).toBe('rate_limit_error');
    expect(server.requests).toHaveLength(1);
  });

  it('reports 529 as overloaded with its status and request id', async () => {
    server.enqueue({ kind: 'overloaded', requestId: 'req_529' });

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('overloaded');
    expect(error.status).toBe(529);
    expect(error.requestId).toBe('req_529');
    expect(error.retryable).toBe(true);
    expect(error.detail).toBe('Overloaded');
    expect(error.message).toBe(
      'Model request to anthropic failed (overloaded, status 529, request req_529): Overloaded',
    );
    expect(error.name).toBe('ModelApiError');
  });

  it('reports 400 as invalid_request, not retryable, with the API message', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      message: 'messages: field required',
      requestId: 'req_400',
    });

    const error = await failure(clientWithRetries(2).step(request()));

    expect(error.code).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.requestId).toBe('req_400');
    expect(error.retryable).toBe(false);
    expect(error.detail).toBe('messages: field required');
    expect(server.requests).toHaveLength(1);
  });

  it('reports 401 as authentication, not retryable', async () => {
    server.enqueue({
      kind: 'error',
      status: 401,
      type: 'authentication_error',
      message: 'invalid x-api-key',
      requestId: 'req_401',
    });

    const error = await failure(clientWithRetries(2).step(request()));

    expect(error.code).toBe('authentication');
    expect(error.status).toBe(401);
    expect(error.requestId).toBe('req_401');
    expect(error.retryable).toBe(false);
  });

  it('reports 500 as server_error, retryable, once the SDK retries are spent', async () => {
    server.enqueue(
      {
        kind: 'error',
        status: 500,
        type: 'api_error',
        message: 'Internal server error',
        headers: { 'retry-after-ms': '1' },
      },
      { kind: 'error', status: 500, type: 'api_error', message: 'Internal server error', requestId: 'req_500b' },
    );

    const error = await failure(clientWithRetries(1).step(request()));

    expect(server.requests).toHaveLength(2);
    expect(error.code).toBe('server_error');
    expect(error.status).toBe(500);
    expect(error.requestId).toBe('req_500b');
    expect(error.retryable).toBe(true);
  });

  it('honours the x-should-retry header when saying whether a retry may help', async () => {
    server.enqueue({
      kind: 'error',
      status: 500,
      type: 'api_error',
      message: 'Do not retry',
      headers: { 'x-should-retry': 'false' },
    });

    const error = await failure(clientWithRetries(3).step(request()));

    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe('server_error');
    expect(error.retryable).toBe(false);
  });

  it('reports a body that is not valid JSON as malformed_response', async () => {
    server.enqueue({ kind: 'malformed', body: '{"id":"msg_1","content":[{"type":"te' });

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('malformed_response');
    expect(error.retryable).toBe(false);
    expect(error.detail).toMatch(/^the response body is not valid JSON/);
  });

  it('reports a body that is not JSON at all as malformed_response', async () => {
    server.enqueue({ kind: 'malformed', body: '<html>Bad gateway page</html>', contentType: 'text/html' });

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('malformed_response');
    expect(error.detail).toMatch(/not a JSON object \(got text starting "<html>Bad gateway page<\/html>"\)/);
  });

  it.each([
    ['no content array', { content: 'Hello' }, /no `content` array/],
    [
      'a tool_use block without an id',
      { content: [{ type: 'tool_use', name: 'x', input: {} }] },
      /tool_use block 0 has no `id`/,
    ],
    [
      'a tool_use block whose input is not an object',
      { content: [{ type: 'tool_use', id: 't', name: 'x', input: '{}' }] },
      /`input` that is not an object/,
    ],
    ['a text block without text', { content: [{ type: 'text' }] }, /text block 0 has no `text` string/],
    ['a block without a type', { content: [{ text: 'hi' }] }, /content block 0 has no `type`/],
    ['usage that is not a count', { usage: { input_tokens: 'many', output_tokens: 1 } }, /usage.input_tokens/],
  ])('reports a message with %s as malformed_response with its request id', async (_label, overrides, detail) => {
    server.enqueue(messageReply(overrides, 'req_bad_shape'));

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('malformed_response');
    expect(error.requestId).toBe('req_bad_shape');
    expect(error.detail).toMatch(detail);
  });

  it('reports a connection cut mid-response as connection, retryable', async () => {
    server.enqueue({
      kind: 'cut_mid_response',
      body: messageBody({ content: [{ type: 'text', text: 'x'.repeat(4000) }] }),
    });

    const error = await failure(clientWithRetries(0).step(request()));

    expect(error.code).toBe('connection');
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
  });

  it('reports a connection reset before any response as connection, once the SDK retries are spent', async () => {
    server.enqueue({ kind: 'reset' }, { kind: 'reset' });

    const error = await failure(clientWithRetries(1).step(request()));

    expect(server.requests).toHaveLength(2);
    expect(error.code).toBe('connection');
    expect(error.retryable).toBe(true);
  });

  it('reports a refused connection as connection', async () => {
    const url = server.baseURL;
    await server.close();
    const client = new AnthropicModelClient({ client: new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 }) });

    const error = await failure(client.step(request()));

    expect(error.code).toBe('connection');
    server = await startMessagesApiServer();
  });

  it('reports an abort while the API hangs as aborted, promptly, and closes the connection', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const client = clientWithRetries(2);

    const pending = failure(client.step(request(controller.signal)));
    await server.waitForRequests(1);
    const abortedAt = Date.now();
    controller.abort();
    const error = await pending;

    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(error.code).toBe('aborted');
    expect(error.retryable).toBe(false);
    await server.waitForHangUp();
    expect(server.requests).toHaveLength(1);
  });

  it('reports the SDK client timing out as connection, retryable', async () => {
    server.enqueue({ kind: 'hang' });
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0, timeout: 300 }),
    });

    const error = await failure(client.step(request()));

    expect(error.code).toBe('connection');
    expect(error.detail).toBe('the request timed out');
    expect(error.retryable).toBe(true);
  });

  it('reports an already aborted signal as aborted without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();

    const error = await failure(clientWithRetries(0).step(request(controller.signal)));

    expect(error.code).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a missing API key as authentication without sending anything', async () => {
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: null, baseURL: server.baseURL, maxRetries: 0 }),
    });

    const error = await failure(client.step(request()));

    expect(error.code).toBe('authentication');
    expect(error.detail).toMatch(/Could not resolve authentication method/);
    expect(server.requests).toHaveLength(0);
  });

  it.each(['[1,2]', '{"city":', '"Oslo"', ''])(
    'sends a recorded call whose arguments %j are not a JSON object with input {} (the API takes objects only)',
    async (text) => {
      server.enqueue(messageReply());
      await clientWithRetries(0).step({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: text }] },
          { role: 'tool', toolCallId: 'toolu_1', toolName: 'get_weather', content: '{"ok":false}', isError: true },
        ],
        tools: [],
        signal: new AbortController().signal,
      });
      expect(server.requests[server.requests.length - 1].body.messages[1].content).toEqual([
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
      ]);
    },
  );

  it('reports a tool whose input schema is not an object schema as invalid_request without sending anything', async () => {
    const error = await failure(
      clientWithRetries(0).step({
        ...request(),
        tools: [{ name: 'bad', description: 'Bad.', inputSchema: { type: 'string' } }],
      }),
    );

    expect(error.code).toBe('invalid_request');
    expect(error.detail).toMatch(/tool 'bad'/);
    expect(server.requests).toHaveLength(0);
  });
});
