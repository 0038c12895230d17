import { CLI_EXIT_CODES, CliError } from './cli-error';
import { CliIo } from './cli-io';

/** Options of `wuwe mcp`. */
export interface McpCommandOptions {
  readonly http?: string;
  /** @default '127.0.0.1' */
  readonly host?: string;
}

/**
 * `wuwe mcp <module> [--http <port>] [--host <host>]`: the `wuwe-mcp` server (the same parser and
 * code, {@link serveToolModule}). The MCP SDK is loaded only when this command runs. Resolves once
 * the server listens; the process then serves until its input closes (stdio) or it is stopped.
 */
export async function serveMcp(io: CliIo, modulePath: string, options: McpCommandOptions): Promise<number> {
  const { parseWuweMcpArguments, serveToolModule } = await import('../mcp/wuwe-mcp');
  const argv = [modulePath, ...(options.http === undefined ? [] : ['--http', options.http]), '--host', options.host ?? '127.0.0.1'];
  let command: ReturnType<typeof parseWuweMcpArguments>;
  try {
    command = parseWuweMcpArguments(argv);
  } catch (error) {
    throw new CliError('usage', error instanceof Error ? error.message.replace(/; usage: .*$/, '') : String(error), { cause: error });
  }
  await serveToolModule(command, { cwd: io.cwd, stderr: io.stderr });
  return CLI_EXIT_CODES.ok;
}
