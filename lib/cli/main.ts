import { Command, CommanderError, Option } from 'commander';
import { approvalsDecide, approvalsList } from './approval-commands';
import { auditExport, auditVerify } from './audit-commands';
import { CLI_EXIT_CODES } from './cli-error';
import { CliIo, processIo } from './cli-io';
import { failureOf } from './exit-code-of';
import { exportRun } from './export-command';
import { resumeRun } from './resume-command';
import { runsList, runsShow } from './runs-commands';
import { runsTail } from './runs-tail';
import { McpCommandOptions, serveMcp } from './mcp-command';
import { runWorker } from './worker-command';
import { terminalSafeIo } from './terminal-safe-io';
import { escapeTerminalLine, terminalSafeJson } from './terminal-text';
import { wantsJson } from './usage-error';

const STORE_HELP = 'run store: sqlite:<path> or postgres://... (default: $WUWE_STORE, else sqlite:.wuwe/runs.db)';
const KEY_FILE_HELP =
  'record keys of a keyed chain: JSON { "id", "key", "encoding": "utf8"|"hex"|"base64" } or an array of them';

/**
 * Runs the `wuwe` command line on `argv` (the arguments after the program name) and returns the exit code:
 * 0 ok, 1 failure, 2 usage error, 3 not found, 4 conflict (see {@link CLI_EXIT_CODES}). Expected errors are
 * one line on stderr (a JSON document with `--json`, usage errors included), never a stack trace.
 */
export async function main(argv: readonly string[], givenIo: CliIo = processIo()): Promise<number> {
  // Every text any command writes passes the terminal escaping: a new command cannot forget it.
  const io = terminalSafeIo(givenIo);
  let exitCode = CLI_EXIT_CODES.ok;
  const json = wantsJson(argv);
  const program = buildProgram(io, json, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (
      error instanceof CommanderError &&
      (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
    )
      return CLI_EXIT_CODES.ok;
    const failure = failureOf(error);
    // Without --json, commander already printed its own usage message.
    if (error instanceof CommanderError && !json) return failure.exitCode;
    if (json)
      io.stderr(
        `${terminalSafeJson({ error: { code: failure.errorCode, ...(failure.usage === undefined ? {} : { usage: failure.usage }), message: failure.message, exitCode: failure.exitCode } })}\n`,
      );
    else io.stderr(`wuwe: ${escapeTerminalLine(failure.message)}\n`);
    if (!failure.expected && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return failure.exitCode;
  }
}

/**
 * The command tree. With `json`, the parser writes nothing to stderr (its error text and the help it shows for a
 * missing subcommand): {@link main} reports the error it throws as one JSON object instead.
 */
function buildProgram(io: CliIo, json: boolean, setExitCode: (code: number) => void): Command {
  const program = new Command('wuwe')
    .description('List, inspect, approve, resume and export durable wuwe agent runs.')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => (json ? undefined : io.stderr(text)) })
    .showHelpAfterError(json ? false : '(run wuwe --help for usage)');
  const act =
    <A extends unknown[]>(body: (...args: A) => Promise<number>) =>
    async (...args: A): Promise<void> => {
      setExitCode(await body(...args));
    };
  const store = (): Option => new Option('--store <spec>', STORE_HELP);
  const keyFile = (): Option => new Option('--key-file <file>', KEY_FILE_HELP);

  const runs = program.command('runs').description('look at runs');
  runs
    .command('list')
    .description('list runs, oldest first, with status, creation time and steps')
    .addOption(store())
    .addOption(keyFile())
    .option(
      '--status <status>',
      'only runs with this status (running, awaiting_approval, completed, failed, cancelled)',
    )
    .option('--json', 'print JSON')
    .action(act((options: Parameters<typeof runsList>[1]) => runsList(io, options)));
  runs
    .command('show')
    .description('show a run: messages, tool calls with their outcomes, approvals, projections')
    .argument('<run>', 'run id')
    .addOption(store())
    .addOption(keyFile())
    .option('--json', 'print JSON')
    .action(act((runId: string, options: Parameters<typeof runsShow>[2]) => runsShow(io, runId, options)));
  runs
    .command('tail')
    .description('follow a run until it completes, fails or is cancelled (exit 0 only when it completed)')
    .argument('<run>', 'run id')
    .addOption(store())
    .addOption(keyFile())
    .option('--interval <ms>', 'milliseconds between polls', '1000')
    .option('--timeout <ms>', 'give up after this many milliseconds')
    .option('--json', 'print one JSON object per line')
    .action(act((runId: string, options: Parameters<typeof runsTail>[2]) => runsTail(io, runId, options)));

  const approvals = program.command('approvals').description('decide the calls runs wait on');
  approvals
    .command('list')
    .description('list pending approvals with tool, arguments and their SHA-256')
    .addOption(store())
    .addOption(keyFile())
    .option('--run <run>', 'only this run')
    .option('--all', 'decided approvals too')
    .option('--json', 'print JSON')
    .action(act((options: Parameters<typeof approvalsList>[1]) => approvalsList(io, options)));
  for (const [name, approved] of [
    ['approve', true],
    ['deny', false],
  ] as const)
    approvals
      .command(name)
      .description(`${name} a pending call: shows tool, arguments and SHA-256; refused when the hash does not match`)
      .argument('<run>', 'run id')
      .argument('<call>', 'tool call id')
      .addOption(store())
      .addOption(keyFile())
      .option(
        '--arguments-sha256 <hash>',
        'the SHA-256 of the arguments you checked; the decision is refused for other arguments',
      )
      .option('--by <name>', 'who decides, for the audit record (default: the system user)')
      .option('--reason <text>', 'why')
      .option('--json', 'print JSON')
      .action(
        act((runId: string, callId: string, options: Parameters<typeof approvalsDecide>[4]) =>
          approvalsDecide(io, approved, runId, callId, options),
        ),
      );

  const audit = program.command('audit').description("check runs against their record's hash chain");
  audit
    .command('verify')
    .description(
      'verify a run (or an export, with --file) against its hash chain: exit 0 when sound, 1 naming the first bad entry',
    )
    .argument('[run]', 'run id')
    .addOption(store())
    .option('--file <export>', 'verify an export of audit export (JSON lines) offline, without a store')
    .addOption(keyFile())
    .option('--json', 'print JSON')
    .action(
      act((runId: string | undefined, options: Parameters<typeof auditVerify>[2]) => auditVerify(io, runId, options)),
    );
  audit
    .command('export')
    .description('write a run with its hash chain, as stored and unverified, as JSON lines')
    .argument('<run>', 'run id')
    .addOption(store())
    .option('--out <file>', 'file to write (- for stdout)', '-')
    .action(act((runId: string, options: Parameters<typeof auditExport>[2]) => auditExport(io, runId, options)));

  program
    .command('resume')
    .description('resume a stored run with the runner an agent module exports')
    .argument('<run>', 'run id')
    .requiredOption('--agent <module>', "module exporting 'runner' (or 'createRunner()'), and optionally 'runOptions'")
    .addOption(store())
    .addOption(keyFile())
    .option('--quiet', 'no progress lines on stderr')
    .option('--events <file>', "append the run's events with their times to this file (for export --html --events)")
    .option('--json', 'print JSON')
    .action(act((runId: string, options: Parameters<typeof resumeRun>[2]) => resumeRun(io, runId, options)));

  program
    .command('worker')
    .description(
      "take queued runs (wuwe/queue) and execute them with the agents' runners until SIGINT or SIGTERM, then drain",
    )
    .requiredOption(
      '--agent <module...>',
      "agent module ('runner' or 'createRunner()', optionally 'runOptions'), as <module> or <name>=<module>; repeatable",
    )
    .addOption(new Option('--store <spec>', 'run store: postgres://... (default: $WUWE_STORE)'))
    .option('--concurrency <n>', 'runs executed at once (default: 4)')
    .option('--queue-schema <name>', "PostgreSQL schema of the queue's tables (default: wuwe_queue)")
    .option('--queue-name <name>', 'name of the job queue (default: wuwe-runs)')
    .option('--lease-ttl-ms <ms>', 'lease of each run (default: 60000)')
    .addOption(keyFile())
    .action(act((options: Parameters<typeof runWorker>[1]) => runWorker(io, options)));

  program
    .command('export')
    .description('write a run to a file')
    .argument('<run>', 'run id')
    .addOption(store())
    .addOption(keyFile())
    .option('--json <file>', 'the complete record as JSON (- for stdout)')
    .option('--html <file>', 'a self-contained HTML page of the run (- for stdout)')
    .option('--events <file>', 'event journal of the run (JSON lines) for the timeline lanes of --html')
    .action(act((runId: string, options: Parameters<typeof exportRun>[2]) => exportRun(io, runId, options)));

  program
    .command('mcp')
    .description(
      'serve the tools a module exports over MCP (stdio, or Streamable HTTP with --http); the same as wuwe-mcp',
    )
    .argument('<module>', 'module exporting @Tool classes and/or ToolProviders')
    .option('--http <port>', 'serve Streamable HTTP on this port (0: any free port) instead of stdio')
    .option('--host <host>', 'address to bind with --http', '127.0.0.1')
    .option(
      '--allowed-host <name>',
      'host name the HTTP endpoint answers besides localhost (needed with a --host other than loopback); repeatable',
      collect,
      [],
    )
    .option(
      '--allowed-origin <origin>',
      'origin (scheme://host[:port]) whose pages may call the HTTP endpoint; repeatable',
      collect,
      [],
    )
    .action(act((modulePath: string, options: McpCommandOptions) => serveMcp(io, modulePath, options)));
  return program;
}

/** Collects a repeatable option's values in order. */
function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}
