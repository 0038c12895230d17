/**
 * A `node:http` server (no framework) for a chat page: `GET /` serves the page, `GET /page.js` its script (the
 * `ai` package's `Chat` bundled with esbuild), `POST /api/chat` runs the agent and answers with its UI message
 * stream. An approval the page answers comes back in the next request: `decideUIApproval` records it through the
 * store (bound to the call's arguments hash, decided by the principal this server names), then the run resumes.
 * Runs keep their events (`keepEvents`) and go on when the page goes away: `GET /api/chat/<chatId>/stream` (the
 * AI SDK's resume, `chat.resumeStream()`) follows the chat's run again, after `Last-Event-ID` when sent. Runs execute
 * in this process, or on a queue worker with `runs: queuedRuns(queue)` (the store then is the queue's PostgreSQL one).
 */
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { LlmAgentRunner, MemoryRunStore, RunStore, WuweError } from '../../lib';
import { decideUIApproval, UIStreamApprovals } from '../../lib/ui-stream';
import { buildRunner } from './agent';
import { ChatRuns } from './chat-runs';
import { ChatRunDriver, inProcessRuns } from './run-drivers';

/** Options of {@link startChatServer}. */
export interface ChatServerOptions {
  /** The page's script (see `bundlePage`). */
  readonly pageScript: string;
  /** The key approval ids are signed with: at least 32 bytes, kept on the server. */
  readonly secret: string;
  /** Where runs and their kept events live. @default a MemoryRunStore */
  readonly store?: RunStore;
  /** The agent's runner, for runs in this process. @default the sample's agent */
  readonly runner?: LlmAgentRunner;
  /** How runs are started and resumed: `queuedRuns(queue)` puts them on a queue worker. @default in this process */
  readonly runs?: ChatRunDriver;
  /** Who the server says decides an approval (a real server names its authenticated user). @default 'page-user' */
  readonly principal?: string;
}

/** A running chat server. */
export interface ChatServer {
  readonly url: string;
  readonly store: RunStore;
  /** The chats' runs. */
  readonly chats: ChatRuns;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

/** The resume route of the AI SDK's `DefaultChatTransport` (`<api>/<chatId>/stream`). */
const RESUME_ROUTE = /^\/api\/chat\/([^/?]+)\/stream$/;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>wuwe chat</title></head>
<body><h1>Refunds</h1><div id="messages"></div>
<form id="form"><input id="prompt" value="Refund order A-1"><button id="send">Send</button></form>
<p id="status"></p><script src="/page.js"></script></body></html>`;

/** Starts the server on a free loopback port. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const store = options.store ?? new MemoryRunStore();
  const runs = options.runs ?? inProcessRuns(options.runner ?? buildRunner(), store);
  const approvals: UIStreamApprovals = { store, secret: options.secret };
  const chats = new ChatRuns(store, runs, approvals);

  async function chat(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(request)) as { id?: unknown; messages?: unknown };
    const chatId = typeof body.id === 'string' && body.id !== '' ? body.id : randomUUID();
    const decided = await decideUIApproval(body.messages, {
      ...approvals,
      decidedBy: options.principal ?? 'page-user',
    });
    const run =
      decided === undefined
        ? await chats.start(chatId, randomUUID(), body.messages)
        : await chats.resume(chatId, decided);
    await chats.followNew(run, response);
  }

  async function resume(chatId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const lastEventId = request.headers['last-event-id'];
    await chats.followAgain(chatId, typeof lastEventId === 'string' ? lastEventId : undefined, response);
  }

  /** Answers a refused request (a forged or replayed approval, malformed messages, a bad cursor): it ran nothing. */
  const refused =
    (response: ServerResponse) =>
    (error: unknown): void => {
      const status = WuweError.isInstance(error) ? 400 : 500;
      const payload = WuweError.isInstance(error)
        ? { code: error.code, message: error.message }
        : { code: 'internal', message: 'the request failed' };
      if (!response.headersSent) send(response, status, 'application/json', JSON.stringify(payload));
      else response.destroy();
    };

  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/') return send(response, 200, 'text/html; charset=utf-8', PAGE);
    if (request.method === 'GET' && request.url === '/page.js')
      return send(response, 200, 'text/javascript; charset=utf-8', options.pageScript);
    if (request.method === 'POST' && request.url === '/api/chat')
      return void chat(request, response).catch(refused(response));
    const resumed = request.method === 'GET' ? RESUME_ROUTE.exec(request.url ?? '') : null;
    if (resumed !== null)
      return void resume(decodeURIComponent(resumed[1]), request, response).catch(refused(response));
    send(response, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    chats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
