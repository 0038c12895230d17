import { JsonObject } from '../../outcome/json-value';
import { ToolOutcome, toolData } from '../../outcome/tool-outcome';
import { ToolArguments } from '../filesystem/tool-arguments';
import { withConfinedDirectory } from '../filesystem/confined-directory';
import { resolveWorkingDirectory } from './confined-cwd';
import { applyArgumentRule } from './argument-rules';
import { buildChildEnvironment } from './environment-rules';
import { spawnError, workingDirectoryError } from './process-errno';
import { ProcessError, ProcessErrorCode } from './process-error';
import { ResolvedProcessPolicy } from './process-policy';
import { ProcessRunRequest, runProcess } from './run-process';

/** A call checked against the policy and resolved, ready to start: a run request without the policy's limits. */
export type ProcessRunPlan = Pick<ProcessRunRequest, 'file' | 'argv0' | 'args' | 'cwd' | 'env' | 'stdin'> & {
  /** The working directory as the caller gave it, relative to the root, for messages. */
  readonly displayCwd: string;
};

/** How a started run ended, for the outcome and the audit entry. */
export interface ProcessRunReport {
  readonly outcome: ToolOutcome;
  /**
   * Set when the run did not complete: `timeout`, `cancelled`, or why it could not start (`executable_unavailable`,
   * `too_large`, `spawn_failed`).
   */
  readonly code?: ProcessErrorCode;
  /** False when no process was started (the spawn failed). */
  readonly started: boolean;
  /** The OS message of a failed spawn, for the audit log only. */
  readonly hostDetail?: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
}

/** Longest single argument the kernel accepts, its terminating NUL included (Linux `MAX_ARG_STRLEN`). */
export const MAX_ARGUMENT_STRING_BYTES = 131_072;

/**
 * Checks a call against the policy and resolves everything it names, in this order: executable
 * (allow list), arguments (no NUL, each under {@link MAX_ARGUMENT_STRING_BYTES}, total size with one
 * byte per argument for its terminating NUL, so a flood of empty arguments counts), working directory (inside the
 * root), environment
 * (allow list), stdin (size). Throws a {@link ProcessError}; nothing is started on bad input.
 */
export async function planRun(
  operation: 'run' | 'shell',
  reader: ToolArguments,
  policy: ResolvedProcessPolicy,
  shellPath?: string,
): Promise<ProcessRunPlan> {
  let file: string;
  let argv0: string;
  let args: readonly string[];
  if (operation === 'shell') {
    if (shellPath === undefined) throw new ProcessError('shell_disabled', 'The raw shell tool is disabled.');
    file = shellPath;
    argv0 = 'sh';
    args = ['-c', reader.string('command')];
  } else {
    argv0 = reader.string('executable');
    if (!Object.prototype.hasOwnProperty.call(policy.executables, argv0))
      throw new ProcessError(
        'executable_not_allowed',
        `'${argv0.slice(0, 200)}' is not an allowed executable. Allowed: ${Object.keys(policy.executables).join(', ')}.`,
        {
          executable: argv0.slice(0, 200),
        },
      );
    file = policy.executables[argv0];
    args = reader.stringArray('args') ?? [];
  }
  const rule =
    operation === 'run' && Object.prototype.hasOwnProperty.call(policy.argumentRules, argv0)
      ? policy.argumentRules[argv0]
      : undefined;
  if (args.some((arg) => arg.includes('\0')))
    throw new ProcessError('invalid_arguments', 'An argument contains a NUL byte.');
  const sizes = args.map((arg) => Buffer.byteLength(arg, 'utf8'));
  if (sizes.some((size) => size >= MAX_ARGUMENT_STRING_BYTES))
    throw new ProcessError(
      'too_large',
      `An argument is ${Math.max(...sizes)} bytes; the system accepts at most ${MAX_ARGUMENT_STRING_BYTES - 1} in one argument.`,
    );
  const argumentBytes = sizes.reduce((total, size) => total + size + 1, 0);
  if (argumentBytes > policy.maxArgumentBytes)
    throw new ProcessError(
      'too_large',
      `The arguments are ${argumentBytes} bytes; at most ${policy.maxArgumentBytes} are accepted.`,
    );
  if (rule !== undefined) args = applyArgumentRule(argv0, rule, args);
  const cwd = await resolveWorkingDirectory(policy.confinedRoot, reader.raw('cwd'));
  const env = buildChildEnvironment(
    policy.root,
    policy.envAllowList,
    policy.baseEnv,
    policy.fixedEnv,
    reader.stringRecord('env'),
  );
  const stdinText = reader.optionalString('stdin');
  const stdin = stdinText === undefined ? undefined : Buffer.from(stdinText, 'utf8');
  if (stdin !== undefined && stdin.length > policy.maxStdinBytes)
    throw new ProcessError(
      'too_large',
      `stdin is ${stdin.length} bytes; at most ${policy.maxStdinBytes} are accepted.`,
    );
  return { file, argv0, args, cwd: cwd.real, displayCwd: cwd.display, env, ...(stdin === undefined ? {} : { stdin }) };
}

/**
 * Starts a planned run under the policy's limits. A completed run is a success whatever its exit
 * code: `{ exitCode, signal, stdout, stderr, stdoutTruncated, stderrTruncated, durationMs }`. A run
 * killed at the time limit is a `timeout` failure, one killed by the abort signal a `cancelled`
 * failure; both carry the partial output in `details`. A spawn the OS refused is reported with
 * `started: false` and a code of its errno (see `spawnError`). Throws, starting nothing,
 * `root_replaced` or `root_unavailable` when the root is not the directory recorded at construction
 * any more, `cwd_outside_root` when the working directory (or a directory on the way to it) was
 * swapped for a link after planning, `cwd_not_found` when it was removed, `cwd_not_accessible` when
 * it cannot be opened.
 */
export async function startPlannedRun(
  plan: ProcessRunPlan,
  policy: ResolvedProcessPolicy,
  signal?: AbortSignal,
): Promise<ProcessRunReport> {
  const start = (cwd: string) =>
    runProcess({
      file: plan.file,
      argv0: plan.argv0,
      args: plan.args,
      env: plan.env,
      ...(plan.stdin === undefined ? {} : { stdin: plan.stdin }),
      cwd,
      timeoutMs: policy.timeoutMs,
      maxStdoutBytes: policy.maxStdoutBytes,
      maxStderrBytes: policy.maxStderrBytes,
      ...(signal === undefined ? {} : { signal }),
    });
  // The directory is walked again from the recorded root, no link allowed, and the child changes
  // into its handle (`/proc/self/fd/N`: the child's own copy of the descriptor, open until exec), so
  // a directory swapped for a link after planning is refused, not entered, and the path is never
  // resolved again at the spawn, even where `/proc` cannot name the directory.
  const result = await withConfinedDirectory(policy.confinedRoot, plan.cwd, plan.displayCwd, start).catch(
    (error: unknown) => {
      throw workingDirectoryError(error, plan.displayCwd);
    },
  );
  const data: JsonObject = {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    durationMs: result.durationMs,
  };
  const report = { exitCode: result.exitCode, signal: result.signal, durationMs: result.durationMs, started: true };
  if (result.spawnError !== undefined) {
    const failure = spawnError(result.spawnErrno, plan.argv0, result.spawnError);
    return {
      ...report,
      started: false,
      code: failure.code,
      hostDetail: result.spawnError,
      outcome: failure.toOutcome(),
    };
  }
  if (result.timedOut) {
    const failure = new ProcessError(
      'timeout',
      `The process group was killed after the ${policy.timeoutMs} ms time limit.`,
      data,
    );
    return { ...report, code: 'timeout', outcome: failure.toOutcome() };
  }
  if (result.cancelled) {
    const failure = new ProcessError('cancelled', 'The run was cancelled; its process group was killed.', data);
    return { ...report, code: 'cancelled', outcome: failure.toOutcome() };
  }
  return { ...report, outcome: toolData(data) };
}
