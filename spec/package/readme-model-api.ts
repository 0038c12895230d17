import { IncomingMessage, ServerResponse } from 'node:http';
import { encodeSse, messageStreamEvents } from '../support/messages-api-sse';
import { messageBody } from '../support/messages-api-server';
import { chatCompletion, responsesBody } from '../support/openai-api-fixtures';
import { listenScriptedHttp, ScriptedHttpServer, sendJson } from '../support/scripted-http-server';

const ANSWER = 'Tokyo is 22 degrees.';

/** What a README example's model request reached. */
export interface ModelApiRequest {
  readonly path: string;
  readonly model: unknown;
}

/** The local stand-in of the model APIs the README's examples call, and the requests it answered. */
export interface ReadmeModelApi {
  /** The environment that points the SDKs at it: `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL` and their keys. */
  readonly env: Readonly<Record<string, string>>;
  readonly requests: readonly ModelApiRequest[];
  close(): Promise<void>;
}

/**
 * Answers every Anthropic Messages (`POST /v1/messages`, whole or streamed), OpenAI Chat Completions
 * (`POST /v1/chat/completions`) and OpenAI Responses (`POST /v1/responses`) request with one text answer
 * that ends the turn, so an example written against a real provider runs offline, through the real SDK.
 * Any other path is a 404, which fails the example that sent it.
 */
export async function startReadmeModelApi(): Promise<ReadmeModelApi> {
  const requests: ModelApiRequest[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse, rawBody: string): void => {
    const path = (request.url ?? '').split('?')[0];
    const body = (rawBody === '' ? {} : JSON.parse(rawBody)) as { model?: unknown; stream?: unknown };
    requests.push({ path, model: body.model });
    if (request.method === 'POST' && path === '/v1/messages') {
      const message = messageBody({ model: body.model, content: [{ type: 'text', text: ANSWER }] });
      if (body.stream !== true) return sendJson(response, 200, message);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of messageStreamEvents(message)) response.write(encodeSse(event));
      return void response.end();
    }
    if (request.method === 'POST' && path === '/v1/chat/completions')
      return sendJson(response, 200, chatCompletion({ text: [ANSWER], model: String(body.model) }));
    if (request.method === 'POST' && path === '/v1/responses')
      return sendJson(response, 200, responsesBody({ text: [ANSWER], model: String(body.model) }));
    sendJson(response, 404, { error: { message: `no such endpoint: ${request.method} ${path}` } });
  };
  const server: ScriptedHttpServer = await listenScriptedHttp(handle);
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    env: {
      ANTHROPIC_BASE_URL: origin,
      ANTHROPIC_API_KEY: 'sk-ant-readme',
      OPENAI_BASE_URL: `${origin}/v1`,
      OPENAI_API_KEY: 'sk-readme',
    },
    requests,
    close: () => server.close(),
  };
}
