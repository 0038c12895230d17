import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** The HTTP side every fake model API of the specs shares: a listening server, its hang-ups, its close. */
export interface ScriptedHttpServer {
  /** The port on 127.0.0.1. */
  readonly port: number;
  /** For answers that keep a connection open (`hang`): call it when the client closes that connection. */
  readonly onHangUp: () => void;
  /** Resolves when the client has closed a connection the server kept open. */
  waitForHangUp(): Promise<void>;
  /** Stops the server, cutting every open connection. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 at a free port that reads each request's whole body and hands it to
 * `handle` with the server (for `onHangUp`); a request whose body cannot be read loses its socket.
 */
export async function listenScriptedHttp(
  handle: (request: IncomingMessage, response: ServerResponse, rawBody: string, onHangUp: () => void) => void,
): Promise<ScriptedHttpServer> {
  const sockets = new Set<Socket>();
  let hangUps = 0;
  const hangUpWaiters: (() => void)[] = [];
  const onHangUp = (): void => {
    hangUps += 1;
    hangUpWaiters.splice(0).forEach((resolve) => resolve());
  };
  const server: Server = createServer((request, response) => {
    readBody(request).then(
      (rawBody) => handle(request, response, rawBody, onHangUp),
      () => request.socket.destroy(),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    onHangUp,
    waitForHangUp: () => new Promise<void>((resolve) => (hangUps > 0 ? resolve() : hangUpWaiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers with a JSON body and its length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
