import { IncomingMessage, ServerResponse } from 'node:http';
import { encodeSse, messageStreamEvents, SseEvent } from './messages-api-sse';
import { listenScriptedHttp, sendJson } from './scripted-http-server';

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`) for tests that drive the real
 * `Anthropic` SDK client through `baseURL`. A request with `stream: true` gets a 200 `json` reply as
 * server-sent events (see `messages-api-sse.ts`); `sse` replies script a stream that fails midway.
 *
 * It records every request (headers and parsed body) and answers from a queue of scripted replies,
 * one reply per request, in order. A request that finds the queue empty gets a 500 whose message says
 * so, and any other path gets a 404, so a test that sends more than it scripted fails visibly.
 */

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`undefined` when the body was not JSON). */
  readonly body: any;
  /** The raw body text. */
  readonly rawBody: string;
}

/** One scripted reply. */
export type ScriptedReply =
  /** A JSON body with a status (default 200) and extra headers. */
  | {
      readonly kind: 'json';
      readonly status?: number;
      readonly body: unknown;
      readonly headers?: Record<string, string>;
    }
  /** 429 with a `rate_limit_error` body, a `retry-after` header (seconds) and a `request-id` header. */
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds?: number; readonly requestId?: string }
  /** 529 with an `overloaded_error` body and a `request-id` header. */
  | { readonly kind: 'overloaded'; readonly requestId?: string }
  /** An Anthropic error body with any status, e.g. 400 `invalid_request_error` or 401 `authentication_error`. */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type: string;
      readonly message: string;
      readonly requestId?: string;
      readonly headers?: Record<string, string>;
    }
  /** A body that is not what the API sends: raw text with a status (default 200) and content type (default JSON). */
  | { readonly kind: 'malformed'; readonly body: string; readonly status?: number; readonly contentType?: string }
  /** Headers and the first part of a JSON body, then the socket is destroyed: a connection cut mid-response. */
  | { readonly kind: 'cut_mid_response'; readonly body?: unknown }
  /** The socket is destroyed before any response byte: a connection reset. */
  | { readonly kind: 'reset' }
  /** No answer at all, until the client goes away (aborts or times out). */
  | { readonly kind: 'hang' }
  /**
   * A streamed answer (`text/event-stream`) of `body` (default `messageBody()`): its first `events`
   * events (default all), then `then`: `end` closes the response there, `cut` destroys the socket,
   * `hang` sends nothing more until the client goes away, and `{ error }` sends an `error` event.
   */
  | {
      readonly kind: 'sse';
      readonly body?: Record<string, unknown>;
      readonly events?: number;
      readonly then?: 'end' | 'cut' | 'hang' | { readonly error: { readonly type: string; readonly message: string } };
      /** How many deltas each text and tool input is split into (at most). @default 3 */
      readonly pieces?: number;
      /** The events to send as they are, instead of those of `body` (for streams the API should never send). */
      readonly rawEvents?: readonly SseEvent[];
    };

/** A running fake Messages API. */
export interface MessagesApiServer {
  /** The `baseURL` to give the SDK, e.g. `http://127.0.0.1:40123`. */
  readonly baseURL: string;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Scripted replies not yet used. */
  readonly pendingReplies: number;
  /** Queues replies, answered in order. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves when `count` requests have arrived (immediately when they already have). */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when the client has closed the connection of a `hang` reply. */
  waitForHangUp(): Promise<void>;
  /** Stops the server, cutting every open connection. */
  close(): Promise<void>;
}

/** Starts a fake Messages API on 127.0.0.1 at a free port. */
export async function startMessagesApiServer(): Promise<MessagesApiServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const requestWaiters: { count: number; resolve: () => void }[] = [];

  const notifyRequests = (): void => {
    for (const waiter of [...requestWaiters]) {
      if (requests.length >= waiter.count) {
        requestWaiters.splice(requestWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const handle = (request: IncomingMessage, response: ServerResponse, rawBody: string, onHangUp: () => void): void => {
    requests.push(recordRequest(request, rawBody));
    notifyRequests();
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/messages') {
      sendJson(response, 404, errorBody('not_found_error', `No route for ${request.method} ${request.url}`), {});
      return;
    }
    const reply = queue.shift();
    if (reply === undefined) {
      const body = errorBody('api_error', 'messages-api-server: no scripted reply left');
      sendJson(response, 500, body, { 'x-should-retry': 'false' });
      return;
    }
    const recorded = requests[requests.length - 1];
    (request as IncomingMessage & { streamed?: boolean }).streamed = recorded.body?.stream === true;
    answer(reply, request, response, onHangUp);
  };

  const http = await listenScriptedHttp(handle);

  return {
    baseURL: `http://127.0.0.1:${http.port}`,
    requests,
    get pendingReplies() {
      return queue.length;
    },
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitForRequests: (count) =>
      new Promise<void>((resolve) => {
        requestWaiters.push({ count, resolve });
        notifyRequests();
      }),
    waitForHangUp: http.waitForHangUp,
    close: http.close,
  };
}

/** A complete Messages API response body; override any field. */
export function messageBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'msg_test_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [{ type: 'text', text: 'Hello.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
    ...overrides,
  };
}

/** A 200 reply with `messageBody(overrides)`. */
export function messageReply(overrides: Record<string, unknown> = {}, requestId = 'req_test_ok'): ScriptedReply {
  return { kind: 'json', body: messageBody(overrides), headers: { 'request-id': requestId } };
}

/** The error body the Messages API sends: `{ type: 'error', error: { type, message } }`. */
export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}

function answer(reply: ScriptedReply, request: IncomingMessage, response: ServerResponse, onHangUp: () => void): void {
  const streamed = (request as IncomingMessage & { streamed?: boolean }).streamed === true;
  switch (reply.kind) {
    case 'json':
      if (streamed && (reply.status ?? 200) === 200)
        sendSse(
          response,
          messageStreamEvents(reply.body as Record<string, unknown>),
          reply.headers ?? {},
          'end',
          request,
          onHangUp,
        );
      else sendJson(response, reply.status ?? 200, reply.body, reply.headers ?? {});
      return;
    case 'sse': {
      const events = reply.rawEvents ?? messageStreamEvents(reply.body ?? messageBody(), reply.pieces);
      sendSse(response, events.slice(0, reply.events ?? events.length), {}, reply.then ?? 'end', request, onHangUp);
      return;
    }
    case 'rate_limited':
      sendJson(response, 429, errorBody('rate_limit_error', 'Number of requests has exceeded your rate limit.'), {
        'retry-after': String(reply.retryAfterSeconds ?? 0.01),
        'request-id': reply.requestId ?? 'req_test_rate_limited',
      });
      return;
    case 'overloaded':
      sendJson(response, 529, errorBody('overloaded_error', 'Overloaded'), {
        'request-id': reply.requestId ?? 'req_test_overloaded',
      });
      return;
    case 'error':
      sendJson(response, reply.status, errorBody(reply.type, reply.message), {
        'request-id': reply.requestId ?? `req_test_${reply.status}`,
        ...reply.headers,
      });
      return;
    case 'malformed':
      response.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'application/json',
        'request-id': 'req_test_malformed',
      });
      response.end(reply.body);
      return;
    case 'cut_mid_response': {
      const text = JSON.stringify(reply.body ?? messageBody());
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      response.write(text.slice(0, Math.floor(text.length / 2)), () => {
        setTimeout(() => request.socket.destroy(), 20);
      });
      return;
    }
    case 'reset':
      request.socket.destroy();
      return;
    case 'hang':
      response.on('close', onHangUp);
      return;
  }
}

function sendSse(
  response: ServerResponse,
  events: readonly SseEvent[],
  headers: Record<string, string>,
  then: Extract<ScriptedReply, { kind: 'sse' }>['then'] & {},
  request: IncomingMessage,
  onHangUp: () => void,
): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': 'req_test_stream',
    ...headers,
  });
  response.write(events.map(encodeSse).join(''), () => {
    if (then === 'end') response.end();
    else if (then === 'cut') setTimeout(() => request.socket.destroy(), 20);
    else if (then === 'hang') response.on('close', onHangUp);
    else response.end(encodeSse({ event: 'error', data: { type: 'error', error: then.error } }));
  });
}

function recordRequest(request: IncomingMessage, rawBody: string): RecordedRequest {
  let body: unknown;
  try {
    body = rawBody.length > 0 ? JSON.parse(rawBody) : undefined;
  } catch {
    body = undefined;
  }
  return { method: request.method ?? '', path: request.url ?? '', headers: { ...request.headers }, body, rawBody };
}

/** The API key a request carried, whichever header the SDK used (`x-api-key` or `authorization: Bearer`). */
export function apiKeyOf(request: RecordedRequest): string | undefined {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey;
  const authorization = request.headers.authorization;
  return typeof authorization === 'string' ? authorization.replace(/^Bearer\s+/i, '') : undefined;
}
