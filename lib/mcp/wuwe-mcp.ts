#!/usr/bin/env node
import 'reflect-metadata';
import { createServer } from 'node:http';
import { extname, resolve } from 'node:path';
import { messageOf } from '../errors/message-of';
import { McpHttpHandler } from './mcp-http-handler';
import { McpSetupError } from './mcp-setup-error';
import { McpServing, serveToolsOverStdio } from './serve-stdio';
import { toolProviderOfModule } from './tool-module';

/** What `wuwe-mcp` was asked to do. */
export interface WuweMcpCommand {
  readonly modulePath: string;
  /** Serve Streamable HTTP on this port instead of stdio. */
  readonly httpPort?: number;
  /** The address to bind with `httpPort`. @default '127.0.0.1' */
  readonly host: string;
  /** Host names the HTTP endpoint answers besides the loopback ones (`--allowed-host`, repeatable). */
  readonly allowedHosts: readonly string[];
  /** Origins whose pages may call the HTTP endpoint (`--allowed-origin`, repeatable). */
  readonly allowedOrigins: readonly string[];
}

const USAGE =
  'usage: wuwe-mcp <module> [--http <port>] [--host <host>] [--allowed-host <name>]... [--allowed-origin <origin>]...';

/** Whether `address` only reaches this machine: `localhost`, `127.0.0.0/8` or `::1`. */
function isLoopbackAddress(address: string): boolean {
  const name = address.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * Parses the arguments of `wuwe-mcp`; throws `McpSetupError` (`invalid_server_options`) with the usage
 * on bad input. Serving HTTP on an address other than loopback (`--host 0.0.0.0`) needs at least one
 * `--allowed-host`: the names clients reach the server by; everything else is refused (DNS rebinding).
 */
export function parseWuweMcpArguments(argv: readonly string[]): WuweMcpCommand {
  let modulePath: string | undefined;
  let httpPort: number | undefined;
  let host = '127.0.0.1';
  const allowedHosts: string[] = [];
  const allowedOrigins: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (
      argument === '--http' ||
      argument === '--host' ||
      argument === '--allowed-host' ||
      argument === '--allowed-origin'
    ) {
      const value = argv[++index];
      if (value === undefined) throw new McpSetupError('invalid_server_options', `${argument} needs a value; ${USAGE}`);
      if (argument === '--host') host = value;
      else if (argument === '--allowed-host') allowedHosts.push(value);
      else if (argument === '--allowed-origin') allowedOrigins.push(value);
      else {
        httpPort = Number(value);
        if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535)
          throw new McpSetupError('invalid_server_options', `--http needs a port number, got '${value}'; ${USAGE}`);
      }
    } else if (argument.startsWith('-') || modulePath !== undefined)
      throw new McpSetupError('invalid_server_options', `unexpected argument '${argument}'; ${USAGE}`);
    else modulePath = argument;
  }
  if (modulePath === undefined) throw new McpSetupError('invalid_server_options', `no module given; ${USAGE}`);
  if (httpPort !== undefined && !isLoopbackAddress(host) && allowedHosts.length === 0)
    throw new McpSetupError(
      'invalid_server_options',
      `--host ${host} answers other machines: name the host names clients use with --allowed-host (requests with any other Host are refused); ${USAGE}`,
    );
  return { modulePath, httpPort, host, allowedHosts, allowedOrigins };
}

/** Loads a module of tools; a TypeScript file is compiled on the fly with `ts-node` when it is installed. */
export function loadToolModule(modulePath: string, cwd: string = process.cwd()): unknown {
  const absolute = resolve(cwd, modulePath);
  const extension = extname(absolute);
  if (['.ts', '.mts', '.cts'].includes(extension) && require.extensions[extension] === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('ts-node') as { register(options: object): void }).register({ transpileOnly: true });
    } catch (error) {
      throw new McpSetupError(
        'invalid_server_options',
        `${modulePath} is TypeScript: install ts-node to serve it directly, or serve its compiled .js file`,
        { cause: error },
      );
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(absolute);
}

/** Where {@link serveToolModule} reads the module from and writes its one status line. */
export interface ServeToolModuleIo {
  /** @default process.cwd() */
  readonly cwd?: string;
  /** Receives the status line (never stdout: over stdio, stdout is the protocol). @default process.stderr */
  readonly stderr?: (text: string) => void;
}

/**
 * Serves the tools a module exports, over stdio or over Streamable HTTP (`httpPort`): the one
 * implementation behind `wuwe-mcp <module>` and `wuwe mcp <module>`. Resolves once it listens;
 * the answer's `close()` stops serving.
 */
export async function serveToolModule(command: WuweMcpCommand, io: ServeToolModuleIo = {}): Promise<McpServing> {
  const log = io.stderr ?? ((text: string) => process.stderr.write(text));
  const provider = toolProviderOfModule(loadToolModule(command.modulePath, io.cwd), command.modulePath);
  if (command.httpPort === undefined) return serveToolsOverStdio(provider);
  const handler = new McpHttpHandler(provider, {
    allowedHosts: command.allowedHosts,
    allowedOrigins: command.allowedOrigins,
  });
  const server = createServer((request, response) => {
    handler.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(messageOf(error));
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(command.httpPort, command.host, done);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : command.httpPort;
  log(`wuwe-mcp: serving ${command.modulePath} on http://${command.host}:${port}/mcp\n`);
  return {
    toolServer: handler.toolServer,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** Runs `wuwe-mcp`: serves the tools a module exports over stdio, or over HTTP with `--http <port>`. */
export async function runWuweMcp(argv: readonly string[]): Promise<void> {
  await serveToolModule(parseWuweMcpArguments(argv));
}

if (require.main === module) {
  runWuweMcp(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`wuwe-mcp: ${messageOf(error)}\n`);
    process.exitCode = 1;
  });
}
