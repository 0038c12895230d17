/** Where the `wuwe` command line writes, and what it may wait on; tests pass their own. */
export interface CliIo {
  /** Receives results (tables, JSON documents). Text is written as given; lines end with `\n`. */
  readonly stdout: (text: string) => void;
  /** Receives errors and progress. */
  readonly stderr: (text: string) => void;
  /** The directory relative paths are resolved against. @default process.cwd() */
  readonly cwd?: string;
  /** Environment variables (`WUWE_STORE`). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Waits between polls of `runs tail`. @default a timer */
  readonly sleep?: (ms: number) => Promise<void>;
  /** stderr is a terminal: long operations draw a progress line there (never with `--json`). @default false */
  readonly stderrIsTTY?: boolean;
  /** Width of that terminal, for the progress line. @default 80 */
  readonly columns?: number;
  /**
   * Aborted when a long-running command (`wuwe worker`) should stop gracefully. @default on the process's SIGINT or
   * SIGTERM
   */
  readonly shutdown?: AbortSignal;
}

/** The process's streams, working directory and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stderr.columns,
  };
}
