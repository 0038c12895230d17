import { CliIo } from './cli-io';
import { rawStderrOf } from './terminal-safe-io';
import { escapeTerminalLine } from './terminal-text';

/** One status line on stderr that rewrites itself, for long operations. */
export interface ProgressLine {
  /** Shows `text` in place of the previous status (nothing when it is unchanged). */
  update(text: string): void;
  /** Erases the status line, e.g. before a line is printed for good; the next update draws it again. */
  clear(): void;
}

/** A progress line that draws nothing. */
const SILENT: ProgressLine = Object.freeze({ update: () => undefined, clear: () => undefined });

/**
 * A progress line on `io.stderr`, drawn only when stderr is a terminal (`io.stderrIsTTY`) and `wanted`
 * (commands pass false for `--json`, `--quiet` and documents written to stdout): a script never reads
 * terminal control codes, and `--json` output stays exactly one JSON document. Its erase sequence is the one
 * control the command line writes itself; the status text is escaped like every other line.
 */
export function progressLine(io: CliIo, wanted: boolean): ProgressLine {
  if (!wanted || io.stderrIsTTY !== true) return SILENT;
  const width = Math.max(20, (io.columns ?? 80) - 1);
  const write = rawStderrOf(io);
  let shown: string | undefined;
  return {
    update(text: string): void {
      const escaped = escapeTerminalLine(text);
      const line = escaped.length > width ? `${escaped.slice(0, width - 3)}...` : escaped;
      if (line === shown) return;
      shown = line;
      write(`\r\x1b[2K${line}`);
    },
    clear(): void {
      if (shown === undefined) return;
      shown = undefined;
      write('\r\x1b[2K');
    },
  };
}
