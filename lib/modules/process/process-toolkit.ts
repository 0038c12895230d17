import { AuditedToolkit } from '../audited-toolkit';
import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolContractOptions } from '../../contract/tool-descriptor';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolArguments } from '../filesystem/tool-arguments';
import { ProcessAuditEntry } from './process-audit';
import { ProcessError } from './process-error';
import { ProcessPolicyOptions, ResolvedProcessPolicy, SHELL_PATH, compileProcessPolicy } from './process-policy';
import { RUN_ARGUMENT_NAMES, SHELL_ARGUMENT_NAMES, runToolSpec, shellToolSpec } from './process-tool-specs';
import { resolveExecutable } from './resolve-executable';
import { unexpected } from './process-errno';
import { ProcessRunPlan, planRun, startPlannedRun } from './process-run-plan';
import { messageOf } from '../../errors/message-of';

/** Provider configuration of a {@link ProcessToolkit}, beside its policy. */
export interface ProcessToolkitOptions {
  /** Provider half of the raw shell opt-in; the policy's `allowShell` is the other half. @default false */
  readonly enableShellTool?: boolean;
  /** Tool names are `<prefix>_run` and `<prefix>_shell`. @default 'process' */
  readonly toolNamePrefix?: string;
  /** Contract fields over the defaults, per tool. */
  readonly contracts?: { readonly run?: ToolContractOptions; readonly shell?: ToolContractOptions };
}

/** Headroom of the descriptor's deadline over the policy's time limit, so the toolkit's own kill answers first. */
const DEADLINE_HEADROOM_MS = 2000;

/**
 * Runs allowed programs argv-first, as a {@link wuwe!ToolProvider}: `process_run`, and `process_shell`
 * only when both the policy (`allowShell`) and this configuration (`enableShellTool`) opt in.
 * Executables come from an allow list resolved at construction (no PATH lookup at call time), the
 * working directory is confined to the root, the environment is built from an allow list, and each
 * run's process group is killed at the time limit or on abort. Every call leaves one audit entry.
 *
 * What this does not contain (Node.js 20 alone cannot; use a container, user namespace, cgroup or
 * Landlock/seccomp around the host for that):
 * - The root confines the starting working directory only. A child can open any path its OS user
 *   can (`cat /etc/passwd` when `cat` is allowed, `cd ..`); it is not a filesystem sandbox.
 * - An allowed program that runs other programs (`env`, `sh`, `xargs`, `find`, interpreters) grants
 *   arbitrary execution, including `env LD_PRELOAD=... program`; the environment allow list only
 *   governs what the toolkit passes.
 * - Executables are pinned by real path at construction: repointing a configured symlink later
 *   changes nothing, but replacing the file at the resolved path does (there is no exec by handle).
 * - The working directory is reached from the root recorded at construction (device and inode;
 *   `root_replaced` otherwise), one component at a time through directory handles, and on Linux the
 *   child enters that very handle (`/proc/self/fd/N`), never a host path resolved again; elsewhere it
 *   is checked, then handed to the spawn by path, and a swap in between is not detected.
 * - A descendant that leaves the process group (`setsid`) outlives the run; it cannot hold the
 *   result past the time limit (see `runProcess`).
 * - The child's memory, CPU, open files and process count are not limited (a fork bomb inside the
 *   group is killed only at the time limit); set them with cgroups or `prlimit` around the host.
 */
export class ProcessToolkit extends AuditedToolkit<ProcessAuditEntry> {
  /** The compiled policy. */
  readonly policy: ResolvedProcessPolicy;
  /** Real path of `/bin/sh` when the shell tool is enabled. */
  private readonly shellPath?: string;
  private readonly runName: string;
  private readonly shellName: string;

  /** Throws {@link ProcessError} (`invalid_policy`, `invalid_root`, `executable_not_found`) for a bad configuration. */
  constructor(policy: ProcessPolicyOptions, options: ProcessToolkitOptions = {}) {
    super();
    this.policy = compileProcessPolicy(policy);
    const prefix = options.toolNamePrefix ?? 'process';
    this.runName = `${prefix}_run`;
    this.shellName = `${prefix}_shell`;
    const timeoutMs = this.policy.timeoutMs + DEADLINE_HEADROOM_MS;
    const descriptors = [
      descriptorFromLlmTool(
        { name: this.runName, ...runToolSpec(this.policy) },
        { sideEffect: 'write', idempotency: 'non_idempotent', timeoutMs, ...options.contracts?.run },
      ),
    ];
    if (this.policy.allowShell && options.enableShellTool === true) {
      this.shellPath = resolveExecutable('sh', SHELL_PATH, '');
      const contract: ToolContractOptions = {
        sideEffect: 'destructive',
        idempotency: 'non_idempotent',
        approval: 'always',
        timeoutMs,
        ...options.contracts?.shell,
      };
      descriptors.push(descriptorFromLlmTool({ name: this.shellName, ...shellToolSpec(this.policy) }, contract));
    }
    this.offer(descriptors);
  }

  protected override async run(toolName: string, args: unknown, signal: AbortSignal | undefined): Promise<ToolOutcome> {
    const operation = toolName === this.runName ? 'run' : toolName === this.shellName ? 'shell' : 'unknown';
    let entry: ProcessAuditEntry = {
      at: new Date().toISOString(),
      ...describeCall(operation, args),
      outcome: 'refused',
    };
    try {
      const plan = await this.plan(operation, toolName, args);
      if (signal?.aborted) throw new ProcessError('cancelled', 'The run was cancelled before it started.');
      entry = { ...entry, at: new Date().toISOString() };
      const report = await startPlannedRun(plan, this.policy, signal);
      entry = {
        ...entry,
        outcome: report.started ? 'allowed' : 'failed',
        ...(report.started ? { exitCode: report.exitCode, signal: report.signal, durationMs: report.durationMs } : {}),
        ...(report.code === undefined ? {} : { code: report.code }),
        ...(report.hostDetail === undefined ? {} : { error: report.hostDetail }),
      };
      return await this.audit(entry, report.outcome, this.policy.audit);
    } catch (caught) {
      const failure = ProcessError.isInstance(caught) ? caught : unexpected(undefined, messageOf(caught));
      const detail = failure.hostDetail === undefined ? {} : { error: failure.hostDetail };
      return this.audit(
        { ...entry, outcome: failure.refusal ? 'refused' : 'failed', code: failure.code, ...detail },
        failure.toOutcome(),
        this.policy.audit,
      );
    }
  }

  private async plan(operation: 'run' | 'shell' | 'unknown', toolName: string, args: unknown): Promise<ProcessRunPlan> {
    if (operation === 'unknown')
      throw new ProcessError('executable_not_allowed', `This toolkit has no tool named '${toolName}'.`);
    if (operation === 'shell' && this.shellPath === undefined)
      throw new ProcessError('shell_disabled', 'The raw shell tool is disabled; use the argv-first run tool.');
    const fail = (message: string) => new ProcessError('invalid_arguments', message);
    const reader = ToolArguments.of(args, operation === 'run' ? RUN_ARGUMENT_NAMES : SHELL_ARGUMENT_NAMES, fail);
    return planRun(operation, reader, this.policy, this.shellPath);
  }
}

/** Most arguments an audit entry keeps; a marker stands for the rest. */
const AUDIT_MAX_ARGS = 64;
/** Most characters an audit entry keeps of one argument, the executable name or the working directory. */
const AUDIT_MAX_CHARS = 1024;

function describeCall(
  operation: 'run' | 'shell' | 'unknown',
  args: unknown,
): Pick<ProcessAuditEntry, 'operation' | 'executable' | 'args' | 'cwd'> {
  const record = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const cwd = typeof record.cwd === 'string' ? clip(record.cwd) : '.';
  if (operation === 'shell')
    return {
      operation,
      executable: 'sh',
      args: ['-c', typeof record.command === 'string' ? clip(record.command, 4 * AUDIT_MAX_CHARS) : ''],
      cwd,
    };
  const list = Array.isArray(record.args) ? record.args : [];
  const kept = list.slice(0, AUDIT_MAX_ARGS).map((item) => clip(typeof item === 'string' ? item : messageOf(item)));
  if (list.length > AUDIT_MAX_ARGS) kept.push(`[${list.length - AUDIT_MAX_ARGS} more arguments]`);
  return {
    operation,
    executable: typeof record.executable === 'string' ? clip(record.executable) : '',
    args: kept,
    cwd,
  };
}

/** `text` cut to `max` characters, with a marker saying how many were left out. */
function clip(text: string, max = AUDIT_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}[${text.length - max} more characters]` : text;
}
