import { IncomingMessage, ServerResponse } from 'node:http';
import { listenScriptedHttp, sendJson } from './scripted-http-server';

/**
 * A local stand-in for the OpenAI API that speaks Chat Completions (`POST /v1/chat/completions`) and the
 * Responses API (`POST /v1/responses`), as JSON or as server-sent events, for tests that drive the real
 * `openai` SDK client through `baseURL`.
 *
 * It records every request and answers from a queue of scripted replies, one per request, in order. An
 * empty queue answers 500 (with `x-should-retry: false`), an unknown path 404, so a test that sends more
 * than it scripted fails visibly. A reply can fail with any status, cut the connection (before any byte,
 * mid-body, or mid-stream), or hang until the client goes away.
 */

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`undefined` when the body was not JSON). */
  readonly body: any;
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
  /** An OpenAI error body `{ error: { message, type, param, code } }` with any status. */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message: string;
      readonly type?: string;
      readonly code?: string;
      readonly requestId?: string;
      readonly headers?: Record<string, string>;
    }
  /**
   * A 200 event stream: each of `events` as one `data:` line (with an `event:` line naming its `type` when
   * `named`, as the Responses API sends), `gapMs` apart, then `data: [DONE]` when `done`. `end` says how it
   * finishes: `close` (default) ends the response, `cut` destroys the socket, `hang` stays open until the client goes
   * away.
   */
  | {
      readonly kind: 'sse';
      readonly events: readonly unknown[];
      readonly named?: boolean;
      readonly done?: boolean;
      readonly gapMs?: number;
      readonly end?: 'close' | 'cut' | 'hang';
    }
  /** A body that is not what the API sends: raw text with a status (default 200) and content type (default JSON). */
  | { readonly kind: 'malformed'; readonly body: string; readonly status?: number; readonly contentType?: string }
  /** Headers and the first half of a JSON body, then the socket is destroyed. */
  | { readonly kind: 'cut_mid_response'; readonly body: unknown }
  /** The socket is destroyed before any response byte: a connection reset. */
  | { readonly kind: 'reset' }
  /** No answer at all, until the client goes away (aborts or times out). */
  | { readonly kind: 'hang' };

/** A running fake OpenAI API. */
export interface OpenAIApiServer {
  /** The `baseURL` to give the SDK, e.g. `http://127.0.0.1:40123/v1`. */
  readonly baseURL: string;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Scripted replies not yet used. */
  readonly pendingReplies: number;
  /** Queues replies, answered in order. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves when the client has closed the connection of a reply that hangs. */
  waitForHangUp(): Promise<void>;
  /** Stops the server, cutting every open connection. */
  close(): Promise<void>;
}

const ROUTES = new Set(['/v1/chat/completions', '/v1/responses']);

/** Starts a fake OpenAI API on 127.0.0.1 at a free port. */
export async function startOpenAIApiServer(): Promise<OpenAIApiServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse, rawBody: string, onHangUp: () => void): void => {
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: { ...request.headers },
      body: parseJson(rawBody),
    });
    if (request.method !== 'POST' || !ROUTES.has(request.url?.split('?')[0] ?? '')) {
      sendJson(response, 404, errorBody(`No route for ${request.method} ${request.url}`, 'invalid_request_error'), {});
      return;
    }
    const reply = queue.shift();
    if (reply === undefined) {
      sendJson(response, 500, errorBody('openai-api-server: no scripted reply left', 'server_error'), {
        'x-should-retry': 'false',
      });
      return;
    }
    answer(reply, request, response, onHangUp);
  };

  const http = await listenScriptedHttp(handle);

  return {
    baseURL: `http://127.0.0.1:${http.port}/v1`,
    requests,
    get pendingReplies() {
      return queue.length;
    },
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitForHangUp: http.waitForHangUp,
    close: http.close,
  };
}

/** The error body the OpenAI API sends. */
export function errorBody(message: string, type: string, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

function answer(reply: ScriptedReply, request: IncomingMessage, response: ServerResponse, onHangUp: () => void): void {
  switch (reply.kind) {
    case 'json':
      sendJson(response, reply.status ?? 200, reply.body, { 'x-request-id': 'req_test_ok', ...reply.headers });
      return;
    case 'error':
      sendJson(
        response,
        reply.status,
        errorBody(reply.message, reply.type ?? 'invalid_request_error', reply.code ?? null),
        {
          'x-request-id': reply.requestId ?? `req_test_${reply.status}`,
          ...reply.headers,
        },
      );
      return;
    case 'sse':
      void streamEvents(reply, request, response, onHangUp);
      return;
    case 'malformed':
      response.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'application/json',
        'x-request-id': 'req_test_malformed',
      });
      response.end(reply.body);
      return;
    case 'cut_mid_response': {
      const text = JSON.stringify(reply.body);
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      response.write(text.slice(0, Math.floor(text.length / 2)), () => setTimeout(() => request.socket.destroy(), 20));
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

async function streamEvents(
  reply: Extract<ScriptedReply, { kind: 'sse' }>,
  request: IncomingMessage,
  response: ServerResponse,
  onHangUp: () => void,
): Promise<void> {
  response.on('close', onHangUp);
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-request-id': 'req_test_stream',
  });
  response.flushHeaders();
  for (const event of reply.events) {
    if (response.destroyed) return;
    const name =
      reply.named === true && typeof event === 'object' && event !== null
        ? `event: ${String((event as { type?: unknown }).type)}\n`
        : '';
    await write(response, `${name}data: ${JSON.stringify(event)}\n\n`);
    if (reply.gapMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.gapMs));
  }
  if (reply.done === true) await write(response, 'data: [DONE]\n\n');
  const end = reply.end ?? 'close';
  if (end === 'close') response.end();
  else if (end === 'cut') setTimeout(() => request.socket.destroy(), 20);
}

function write(response: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => (response.destroyed ? resolve() : response.write(text, () => resolve())));
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
