import { CliIo } from './cli-io';
import { escapeTerminalText } from './terminal-text';

const RAW_STDERR = Symbol('wuwe.cli.rawStderr');

type SafeIo = CliIo & { readonly [RAW_STDERR]: (text: string) => void };

function isSafe(io: CliIo): io is SafeIo {
  return typeof (io as Partial<SafeIo>)[RAW_STDERR] === 'function';
}

/**
 * The io every command writes through: each text written to stdout or stderr passes {@link escapeTerminalText},
 * so no control character of a record (model text, tool output, arguments, `--by`, error messages) reaches a
 * terminal raw, whatever command prints it. JSON passes unchanged in meaning (the escapes are JSON escapes).
 */
export function terminalSafeIo(io: CliIo): CliIo {
  if (isSafe(io)) return io;
  const safe: SafeIo = {
    ...io,
    stdout: (text) => io.stdout(escapeTerminalText(text)),
    stderr: (text) => io.stderr(escapeTerminalText(text)),
    [RAW_STDERR]: io.stderr,
  };
  return safe;
}

/**
 * The unescaped stderr behind a {@link terminalSafeIo}, for the progress line's own erase sequence alone; its
 * text must be escaped by the caller. An io that was not wrapped is returned as it is.
 */
export function rawStderrOf(io: CliIo): (text: string) => void {
  return isSafe(io) ? io[RAW_STDERR] : io.stderr;
}
