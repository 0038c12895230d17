import { ChildProcessByStdio, spawn } from 'node:child_process';
import { createServer, request as httpRequest, Server as HttpServer } from 'node:http';
import { Readable } from 'node:stream';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler } from '../../lib/mcp';

/** The repository root. */
export const ROOT = join(__dirname, '..', '..');

/** The `wuwe-mcp` entry run from its TypeScript source. */
export const WUWE_MCP = ['-r', 'ts-node/register/transpile-only', join(ROOT, 'lib', 'mcp', 'wuwe-mcp.ts')];

/** The fixture module of tools. */
export const SERVED_TOOLS = join(ROOT, 'spec', 'mcp', 'fixtures', 'served-tools.ts');

/** A real SDK client; with `elicit`, it declares elicitation and answers with it. */
export function sdkClient(elicit?: () => ElicitResult): Client {
  const client = new Client(
    { name: 'spec-client', version: '1.0.0' },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, () => elicit());
  return client;
}

/** Connects a client to `wuwe-mcp` serving the fixture tools as a child process over stdio. */
export async function connectWuweMcpOverStdio(client: Client): Promise<Client> {
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...WUWE_MCP, SERVED_TOOLS],
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  return client;
}

/** An HTTP server on a free localhost port mounting the handler at /mcp. */
export async function listenHttp(
  handler: McpHttpHandler,
): Promise<{ url: URL; server: HttpServer; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    handler.handle(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    server,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** Connects a client over Streamable HTTP. */
export async function connectHttp(client: Client, url: URL): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** A serving child process (`wuwe-mcp --http`, `wuwe mcp --http`) and the URL it printed. */
export async function spawnHttpServer(
  args: readonly string[],
): Promise<{ url: URL; child: ChildProcessByStdio<null, null, Readable> }> {
  const child = spawn(process.execPath, [...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<URL>((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /serving .* on (http:\/\/\S+)/.exec(text);
      if (match !== null) resolve(new URL(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${String(code)}: ${text}`)));
  });
  return { url, child };
}

/** The status of an `initialize` POST sent with exactly these `Host` and `Origin` headers. */
export function initializeStatus(url: URL, host: string, origin?: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const headers = {
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(origin === undefined ? {} : { origin }),
  };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', setHost: false, headers },
      (response) => {
        response.destroy();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
