import { IncomingMessage, ServerResponse } from 'node:http';
import { listenScriptedHttp, sendJson } from './scripted-http-server';

/**
 * A small local stand-in for the OpenAI Chat Completions API (`POST /v1/chat/completions`, JSON and
 * server-sent events) for tests that drive `@ai-sdk/openai` through `createOpenAI({ baseURL })`.
 *
 * It records every request and answers from a queue of scripted replies, one per request, in order.
 * A request that finds the queue empty gets a 500 saying so, any other path a 404.
 */

/** A request the server received. */
export interface ChatRequest {
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body. */
  readonly body: any;
}

/** One scripted reply. */
export type ChatReply =
  /** A JSON body with a status (default 200) and extra headers. */
  | {
      readonly kind: 'json';
      readonly body: unknown;
      readonly status?: number;
      readonly headers?: Record<string, string>;
    }
  /** An OpenAI error body `{ error: { message, type, code } }` with a status and headers. */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message: string;
      readonly type: string;
      readonly headers?: Record<string, string>;
    }
  /** Raw text with a status (default 200). */
  | { readonly kind: 'malformed'; readonly body: string; readonly status?: number }
  /**
   * Server-sent events: one `data:` line per chunk, then `data: [DONE]`. With `cutAfter`, the socket is
   * destroyed after that many chunks; with `hangAfter`, nothing more is sent after that many chunks.
   */
  | {
      readonly kind: 'stream';
      readonly chunks: readonly unknown[];
      readonly cutAfter?: number;
      readonly hangAfter?: number;
    }
  /** The socket is destroyed before any response byte. */
  | { readonly kind: 'reset' }
  /** No answer at all, until the client goes away. */
  | { readonly kind: 'hang' };

/** A running fake Chat Completions API. */
export interface ChatCompletionsServer {
  /** The `baseURL` for `createOpenAI`, e.g. `http://127.0.0.1:40123/v1`. */
  readonly baseURL: string;
  /** Every request received so far, in order. */
  readonly requests: readonly ChatRequest[];
  /** Queues replies, answered in order. */
  enqueue(...replies: ChatReply[]): void;
  /** Resolves when the client has closed a connection the server kept open (`hang`, `hangAfter`). */
  waitForHangUp(): Promise<void>;
  /** Stops the server, cutting every open connection. */
  close(): Promise<void>;
}

/** Starts a fake Chat Completions API on 127.0.0.1 at a free port. */
export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const requests: ChatRequest[] = [];
  const queue: ChatReply[] = [];
  const http = await listenScriptedHttp((request, response, text, onHangUp) => {
    requests.push({
      path: request.url ?? '',
      headers: { ...request.headers },
      body: text.length > 0 ? JSON.parse(text) : undefined,
    });
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      sendJson(response, 404, errorBody(`No route for ${request.method} ${request.url}`, 'invalid_request_error'));
      return;
    }
    const reply = queue.shift();
    if (reply === undefined)
      sendJson(response, 500, errorBody('ai-sdk-openai-server: no scripted reply left', 'server_error'), {
        'x-should-retry': 'false',
      });
    else answer(reply, request, response, onHangUp);
  });
  return {
    baseURL: `http://127.0.0.1:${http.port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    waitForHangUp: http.waitForHangUp,
    close: http.close,
  };
}

/** A tool call of a scripted completion; `arguments` is JSON text. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What a scripted completion says. */
export interface CompletionScript {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** @default 'tool_calls' with tool calls, else 'stop' */
  readonly finishReason?: string;
  /** @default { prompt_tokens: 11, completion_tokens: 7 } */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
}

/** A 200 JSON reply with a `chat.completion` body. */
export function completion(script: CompletionScript): ChatReply {
  const toolCalls = script.toolCalls ?? [];
  return {
    kind: 'json',
    headers: { 'x-request-id': 'req_ok' },
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: script.text ?? null,
            ...(toolCalls.length > 0
              ? {
                  tool_calls: toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }
              : {}),
          },
          finish_reason: script.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        },
      ],
      usage: script.usage ?? { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    },
  };
}

/**
 * A streamed reply of `chat.completion.chunk`s: the text in `pieces` of at most `pieceSize` characters,
 * each tool call's arguments in pieces too (its first chunk carries id and name, the next ones only
 * `index` and more `arguments`), then the finish reason, then a usage chunk.
 */
export function streamedCompletion(script: CompletionScript, pieceSize = 4): ChatReply & { kind: 'stream' } {
  const chunk = (delta: unknown, finishReason: string | null = null): unknown => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(script.text ?? '', pieceSize)) chunks.push(chunk({ content: piece }));
  (script.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of pieces(call.arguments, pieceSize))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, script.finishReason ?? ((script.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop')));
  const usage = script.usage ?? { prompt_tokens: 11, completion_tokens: 7 };
  chunks.push({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [],
    usage,
  });
  return { kind: 'stream', chunks };
}

/** The error body of the OpenAI API. */
export function errorBody(message: string, type: string): unknown {
  return { error: { message, type, param: null, code: null } };
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function answer(reply: ChatReply, request: IncomingMessage, response: ServerResponse, onHangUp: () => void): void {
  switch (reply.kind) {
    case 'json':
      sendJson(response, reply.status ?? 200, reply.body, reply.headers);
      return;
    case 'error':
      sendJson(response, reply.status, errorBody(reply.message, reply.type), {
        'x-request-id': `req_${reply.status}`,
        ...reply.headers,
      });
      return;
    case 'malformed':
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      response.end(reply.body);
      return;
    case 'stream': {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-request-id': 'req_stream',
      });
      const stopAt = reply.cutAfter ?? reply.hangAfter ?? reply.chunks.length;
      for (const chunk of reply.chunks.slice(0, stopAt)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (reply.cutAfter !== undefined) setTimeout(() => request.socket.destroy(), 20);
      else if (reply.hangAfter !== undefined) response.on('close', onHangUp);
      else response.end('data: [DONE]\n\n');
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
