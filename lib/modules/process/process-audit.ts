/**
 * One audit log entry. Every call produces exactly one, allowed or refused.
 *
 * `outcome`: `refused` when the policy refused the call; `failed` when the policy allowed it but
 * nothing was started (the working directory vanished, the executable could not be run, the call was
 * cancelled first); `allowed` when a process was started, with `code` set if it then timed out or was
 * cancelled.
 */
export interface ProcessAuditEntry {
  /** ISO-8601 time of the decision. */
  readonly at: string;
  /** `run`, `shell`, or `unknown` for a tool name the toolkit does not offer. */
  readonly operation: 'run' | 'shell' | 'unknown';
  /**
   * The allow-list name the caller gave (`sh` for the shell tool), or '' when none was given.
   * Caller-given strings are kept bounded: the name, each argument and the working directory are
   * cut at 1024 characters (the shell command at 4096) with a `[N more characters]` marker.
   */
  readonly executable: string;
  /** The arguments as given (for the shell tool: `['-c', command]`): at most 64, then a `[N more arguments]` marker. */
  readonly args: readonly string[];
  /** The working directory as given, relative to the root ('.' by default). */
  readonly cwd: string;
  readonly outcome: 'allowed' | 'refused' | 'failed';
  /** The {@link ProcessErrorCode} of a refusal or failure. */
  readonly code?: string;
  /** For the host only: the OS message of an unexpected failure (it may name host paths; the model never sees it). */
  readonly error?: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly durationMs?: number;
}

/** Receives every audit entry. May be async; a sink that throws turns the call into a `tool_error`. */
export type ProcessAuditSink = (entry: ProcessAuditEntry) => void | Promise<void>;
