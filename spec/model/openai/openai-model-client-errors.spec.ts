import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { WuweError } from '../../../lib/errors/wuwe-error';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { ModelRequest } from '../../../lib/model/model-types';
import { ModelApiError } from '../../../lib';
import { OpenAIModelClient } from '../../../lib/model/openai';
import { MessagesApiServer, startMessagesApiServer } from '../../support/messages-api-server';
import { chatCompletion, chatReply, responsesBody } from '../../support/openai-api-fixtures';
import { OpenAIApiServer, startOpenAIApiServer } from '../../support/openai-api-server';

/** Every status class an API answers with, and the odd ones each client must still map. */
const STATUSES = [
  400, 401, 402, 403, 404, 405, 408, 409, 410, 413, 415, 418, 422, 429, 451, 499, 500, 501, 502, 503, 504, 529, 599,
];

describe('OpenAIModelClient errors', () => {
  let server: OpenAIApiServer;

  beforeEach(async () => {
    server = await startOpenAIApiServer();
  });

  afterEach(async () => {
    await server.close();
  });

  function client(
    options: { maxRetries?: number; timeout?: number; api?: 'chat' | 'responses' } = {},
  ): OpenAIModelClient {
    const sdk = new OpenAI({
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: options.maxRetries ?? 0,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    });
    return new OpenAIModelClient({ client: sdk, api: options.api ?? 'chat' });
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

  it('maps every HTTP failure status to the same code, retryability and status as the Anthropic client', async () => {
    const anthropicServer: MessagesApiServer = await startMessagesApiServer();
    try {
      const anthropic = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: anthropicServer.baseURL, maxRetries: 0 }),
      });
      const seen: Record<number, [string, boolean]> = {};
      for (const status of STATUSES) {
        server.enqueue({
          kind: 'error',
          status,
          message: `failed with ${status}`,
          type: 'some_error',
          requestId: `req_${status}`,
        });
        anthropicServer.enqueue({ kind: 'error', status, type: 'some_error', message: `failed with ${status}` });
        const openai = await failure(client().step(request()));
        const claude = await failure(anthropic.step(request()));
        expect({ status, code: openai.code, retryable: openai.retryable }).toEqual({
          status,
          code: claude.code,
          retryable: claude.retryable,
        });
        expect(openai).toMatchObject({
          provider: 'openai',
          status,
          requestId: `req_${status}`,
          detail: `failed with ${status}`,
          apiErrorType: 'some_error',
        });
        seen[status] = [openai.code, openai.retryable];
      }
      expect(seen).toEqual({
        400: ['invalid_request', false],
        401: ['authentication', false],
        402: ['authentication', false],
        403: ['authentication', false],
        404: ['invalid_request', false],
        405: ['invalid_request', false],
        408: ['server_error', true],
        409: ['server_error', true],
        410: ['invalid_request', false],
        413: ['invalid_request', false],
        415: ['invalid_request', false],
        418: ['invalid_request', false],
        422: ['invalid_request', false],
        429: ['rate_limited', true],
        451: ['invalid_request', false],
        499: ['connection', true],
        500: ['server_error', true],
        501: ['server_error', true],
        502: ['server_error', true],
        503: ['server_error', true],
        504: ['server_error', true],
        529: ['overloaded', true],
        599: ['server_error', true],
      });
    } finally {
      await anthropicServer.close();
    }
  });

  it('reports the wait a 429 asked for, and honours x-should-retry', async () => {
    server.enqueue(
      {
        kind: 'error',
        status: 429,
        message: 'Rate limit reached.',
        type: 'requests',
        code: 'rate_limit_exceeded',
        headers: { 'retry-after-ms': '1500' },
      },
      {
        kind: 'error',
        status: 500,
        message: 'Do not retry.',
        type: 'server_error',
        headers: { 'x-should-retry': 'false' },
      },
    );
    const limited = await failure(client().step(request()));
    expect(limited).toMatchObject({ code: 'rate_limited', retryAfterMs: 1500, retryable: true });
    expect(limited.message).toBe(
      'Model request to openai failed (rate_limited, status 429, request req_test_429): Rate limit reached.',
    );
    const notRetryable = await failure(client().step(request()));
    expect(notRetryable).toMatchObject({ code: 'server_error', retryable: false });
  });

  it('lets the SDK retry when its maxRetries allows, and answers from the retry', async () => {
    server.enqueue(
      { kind: 'error', status: 503, message: 'busy', headers: { 'retry-after-ms': '5' } },
      chatReply({ text: ['ok'] }),
    );
    expect((await client({ maxRetries: 1 }).step(request())).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('an error status with no JSON body still maps by status', async () => {
    server.enqueue({ kind: 'malformed', status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' });
    expect(await failure(client().step(request()))).toMatchObject({
      code: 'server_error',
      status: 502,
      retryable: true,
    });
  });

  it.each(['chat', 'responses'] as const)(
    'a reset, a cut body and a timeout are retryable connection errors (%s)',
    async (api) => {
      server.enqueue(
        { kind: 'reset' },
        {
          kind: 'cut_mid_response',
          body: api === 'chat' ? chatCompletion({ text: ['x'] }) : responsesBody({ text: ['x'] }),
        },
        { kind: 'hang' },
      );
      expect(await failure(client({ api }).step(request()))).toMatchObject({ code: 'connection', retryable: true });
      expect(await failure(client({ api }).step(request()))).toMatchObject({ code: 'connection', retryable: true });
      // The SDK reports its timeout as APIConnectionTimeoutError, or (when fetch's AbortError comes from another realm,
      // as under jest) as APIConnectionError.
      const timedOut = await failure(client({ api, timeout: 200 }).step(request()));
      expect(timedOut).toMatchObject({ code: 'connection', retryable: true });
    },
  );

  it.each(['chat', 'responses'] as const)('an abort while waiting is aborted, not retryable (%s)', async (api) => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const running = failure(client({ api }).step(request(controller.signal)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await running).toMatchObject({ code: 'aborted', retryable: false });
    await server.waitForHangUp();
  });

  it.each(['chat', 'responses'] as const)(
    'a body that is not JSON, or not a response, is malformed_response (%s)',
    async (api) => {
      server.enqueue(
        { kind: 'malformed', body: '{"choices": [' },
        { kind: 'json', body: { unexpected: true } },
        {
          kind: 'json',
          body:
            api === 'chat'
              ? {
                  choices: [
                    { message: { tool_calls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: 5 } }] } },
                  ],
                }
              : { output: [{ type: 'function_call', call_id: 'c', name: 'x' }] },
        },
      );
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(await failure(client({ api }).step(request()))).toMatchObject({
          code: 'malformed_response',
          retryable: false,
        });
      }
    },
  );

  it('a failed Responses API response is a retryable server_error with its message', async () => {
    server.enqueue({
      kind: 'json',
      body: {
        ...responsesBody({ text: [''] }),
        status: 'failed',
        error: { code: 'server_error', message: 'The model failed.' },
      },
    });
    expect(await failure(client({ api: 'responses' }).step(request()))).toMatchObject({
      code: 'server_error',
      retryable: true,
      detail: 'The model failed.',
    });
  });

  it('a tool whose schema is not an object schema is refused before anything is sent', async () => {
    const error = await failure(
      client().step({ ...request(), tools: [{ name: 'bad', description: 'x', inputSchema: { type: 'string' } }] }),
    );
    expect(error.code).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });
});
