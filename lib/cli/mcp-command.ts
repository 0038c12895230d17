import { CLI_EXIT_CODES, CliError } from './cli-error';
import { CliIo } from './cli-io';

/** Options of `wuwe mcp`. */
export interface McpCommandOptions {
  readonly http?: string;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** `--allowed-host`, repeatable: host names the HTTP endpoint answers besides the loopback ones. @default [] */
  readonly allowedHost?: readonly string[];
  /** `--allowed-origin`, repeatable: origins whose pages may call the HTTP endpoint. @default [] */
  readonly allowedOrigin?: readonly string[];
}

/**
 * `wuwe mcp <module> [--http <port>] [--host <host>] [--allowed-host <name>]... [--allowed-origin <origin>]...`: the
 * `wuwe-mcp` server (the same parser and
 * code, {@link serveToolModule}). The MCP SDK is loaded only when this command runs. Resolves once
 * the server listens; the process then serves until its input closes (stdio) or it is stopped.
 */
export async function serveMcp(io: CliIo, modulePath: string, options: McpCommandOptions): Promise<number> {
  const { parseWuweMcpArguments, serveToolModule } = await import('../mcp/wuwe-mcp');
  const argv = [
    modulePath,
    ...(options.http === undefined ? [] : ['--http', options.http]),
    ...['--host', options.host ?? '127.0.0.1'],
    ...(options.allowedHost ?? []).flatMap((name) => ['--allowed-host', name]),
    ...(options.allowedOrigin ?? []).flatMap((origin) => ['--allowed-origin', origin]),
  ];
  let command: ReturnType<typeof parseWuweMcpArguments>;
  try {
    command = parseWuweMcpArguments(argv);
  } catch (error) {
    throw new CliError('usage', error instanceof Error ? error.message.replace(/; usage: .*$/, '') : String(error), {
      cause: error,
    });
  }
  await serveToolModule(command, { cwd: io.cwd, stderr: io.stderr });
  return CLI_EXIT_CODES.ok;
}
