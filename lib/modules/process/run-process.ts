import { spawn } from 'node:child_process';
import { OutputCapture } from './output-capture';

/** One fully resolved process to run: nothing here comes from the model unchecked. */
export interface ProcessRunRequest {
  /** Real absolute path of the executable. */
  readonly file: string;
  /** What the child sees as `argv[0]` (the allow-list name). */
  readonly argv0: string;
  readonly args: readonly string[];
  /** Real absolute working directory. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: Buffer;
  readonly timeoutMs: number;
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  readonly signal?: AbortSignal;
}

/** How a run ended. */
export interface ProcessRunResult {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly durationMs: number;
  /** Killed at the time limit. */
  readonly timedOut: boolean;
  /** Killed because the signal aborted. */
  readonly cancelled: boolean;
  /**
   * Set when the process could not be started (e.g. the executable vanished): the OS message, which may name host
   * paths.
   */
  readonly spawnError?: string;
  /** The errno code of {@link spawnError} (`ENOENT`, `EACCES`, ...), when it has one. */
  readonly spawnErrno?: string;
}

/**
 * How long the pipes may stay open, with no output, after the leader has exited and its group was
 * killed. Only a process outside the group (one that called `setsid` or `setpgid`) can still hold
 * them; after this grace the toolkit stops reading and returns instead of waiting for it. Output
 * still arriving extends the grace until the time limit.
 */
export const PIPE_CLOSE_GRACE_MS = 250;

/**
 * Runs one process without a shell, in its own process group (`detached`), and resolves when its
 * pipes close. At the time limit or on abort, and as soon as the leader exits, the whole group is
 * killed with `SIGKILL`, so no child or grandchild that stays in the group outlives the run. Output
 * beyond the caps is read and discarded. Never rejects.
 *
 * Limit (not fixable with Node.js alone): a descendant that leaves the process group (`setsid`,
 * `setpgid`, a daemonizing double fork) is not killed; containing it needs a PID namespace or a
 * cgroup around the run. Such a process cannot hold the result past the time limit: once the leader
 * has exited and the pipes stay quiet for {@link PIPE_CLOSE_GRACE_MS}, or at the time limit, they
 * are closed on our side and the run resolves.
 */
export function runProcess(request: ProcessRunRequest): Promise<ProcessRunResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    const stdout = new OutputCapture(request.maxStdoutBytes);
    const stderr = new OutputCapture(request.maxStderrBytes);
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const child = spawn(request.file, [...request.args], {
      argv0: request.argv0,
      cwd: request.cwd,
      env: { ...request.env },
      detached: true,
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      killGroup();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    const finish = (exitCode: number | null, signal: string | null, spawnError?: NodeJS.ErrnoException): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({
        ...(child.pid === undefined ? {} : { pid: child.pid }),
        exitCode,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        stdoutBytes: stdout.totalBytes,
        stderrBytes: stderr.totalBytes,
        durationMs: Date.now() - started,
        timedOut,
        cancelled,
        ...(spawnError === undefined ? {} : { spawnError: spawnError.message }),
        ...(typeof spawnError?.code === 'string' ? { spawnErrno: spawnError.code } : {}),
      });
    };
    let lastOutputAt = Date.now();
    child.stdout.on('data', (chunk: Buffer) => {
      lastOutputAt = Date.now();
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      lastOutputAt = Date.now();
      stderr.push(chunk);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => finish(null, null, error));
    child.on('exit', (code, signal) => {
      killGroup();
      // Output still arriving (or not yet polled, when the event loop was busy) re-arms the grace;
      // setImmediate lets one poll phase read what is pending before deciding.
      const decide = (): void => {
        if (settled) return;
        if (Date.now() - lastOutputAt < PIPE_CLOSE_GRACE_MS && !timedOut && !cancelled) {
          grace = setTimeout(() => setImmediate(decide), PIPE_CLOSE_GRACE_MS);
          return;
        }
        child.stdin.destroy();
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      };
      grace = setTimeout(() => setImmediate(decide), PIPE_CLOSE_GRACE_MS);
    });
    child.on('close', (code, signal) => finish(code, signal));
    child.stdin.end(request.stdin);
  });
}
