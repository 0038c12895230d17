import { ConfinedRoot } from '../filesystem/confined-root';
import { recordFilesystemRoot } from '../filesystem/filesystem-policy';
import * as path from 'node:path';
import { BUILT_IN_ARGUMENT_PROFILES } from './argument-profiles';
import { ArgumentRule, ruleProblems } from './argument-rules';
import { isDeniedEnvironmentName } from './environment-denial';
import { partitionEnvironmentNames } from './environment-rules';
import { ProcessAuditSink } from './process-audit';
import { ProcessError } from './process-error';
import { EXECUTABLE_NAME_PATTERN, resolveExecutable } from './resolve-executable';
import { messageOf } from '../../errors/message-of';

/** Absolute path of the shell the raw shell adapter runs. */
export const SHELL_PATH = '/bin/sh';

/** What users write to configure a {@link ProcessToolkit}. */
export interface ProcessPolicyOptions {
  /** Directory working directories are confined to. Resolved with `realpath` at construction. */
  readonly root: string;
  /**
   * Allowed executables, resolved to real absolute paths at construction (never looked up at call
   * time). A record maps the name the model uses to an absolute path or a bare command name; an
   * array entry is its own name (an absolute path is named by its base name).
   */
  readonly executables: Readonly<Record<string, string>> | readonly string[];
  /** PATH used to resolve bare command names at construction. @default process.env.PATH */
  readonly searchPath?: string;
  /**
   * Names of environment variables that may reach a child. Loader, interpreter and
   * program-configuration injection variables (`LD_*`, `GIT_CONFIG_*`, `BASH_ENV`, `PYTHON*`,
   * `NODE_OPTIONS`, see `DENIED_ENVIRONMENT_NAMES` and `DENIED_ENVIRONMENT_PREFIXES`) are dropped
   * even when listed. `HOME` and `XDG_*` pass from the host's values but a caller may not set them.
   * `PATH` keeps only absolute entries outside the root. @default [] (the child gets an empty
   * environment plus `fixedEnv`)
   */
  readonly envAllowList?: readonly string[];
  /** Where values of allowed variables come from. @default process.env */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Variables the host always sets (denied names are dropped). @default {} */
  readonly fixedEnv?: Readonly<Record<string, string>>;
  /** Time limit of one run; at the limit the whole process group is killed. @default 10000 */
  readonly timeoutMs?: number;
  /** Captured stdout; the rest is read and discarded, and `stdoutTruncated` is set. @default 65536 */
  readonly maxStdoutBytes?: number;
  /** Captured stderr, likewise. @default 65536 */
  readonly maxStderrBytes?: number;
  /** Largest stdin a call may send. @default 1048576 */
  readonly maxStdinBytes?: number;
  /**
   * Largest total size of the arguments of one call, in UTF-8 bytes plus one per argument (its NUL). @default 131072
   */
  readonly maxArgumentBytes?: number;
  /** Policy half of the raw shell opt-in; the provider option `enableShellTool` is the other half. @default false */
  readonly allowShell?: boolean;
  /** Receives every audit entry. @default undefined (entries go to the toolkit's in-memory `auditLog`) */
  readonly audit?: ProcessAuditSink;
  /**
   * Argument rules per allow-list name. An executable named here gets this rule instead of a
   * built-in profile; `'unrestricted'` turns a built-in profile off. Executables not named here get
   * the profile of `BUILT_IN_ARGUMENT_PROFILES` matching their allow-list name or real file name
   * (git, find, tar, rg, sed, gawk, env, ssh, scp, rsync). @default {} (built-in profiles only)
   */
  readonly argumentRules?: Readonly<Record<string, ArgumentRule | 'unrestricted'>>;
}

/** A validated, frozen process policy with every default filled. */
export interface ResolvedProcessPolicy {
  /** Real path of the root (no symbolic links). */
  readonly root: string;
  /**
   * The root as recorded at construction (real path, device, inode): every run's working directory is reached from that
   * very directory.
   */
  readonly confinedRoot: ConfinedRoot;
  /** Allow-list name to real absolute path. */
  readonly executables: Readonly<Record<string, string>>;
  readonly envAllowList: readonly string[];
  /** Configured names dropped because they are denied. */
  readonly droppedEnvNames: readonly string[];
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly fixedEnv: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  readonly maxStdinBytes: number;
  readonly maxArgumentBytes: number;
  readonly allowShell: boolean;
  readonly audit?: ProcessAuditSink;
  /** The argument rule of each allow-list name that has one (a host rule, else a built-in profile). */
  readonly argumentRules: Readonly<Record<string, ArgumentRule>>;
}

/** Numeric defaults of {@link ProcessPolicyOptions}. */
export const DEFAULT_PROCESS_LIMITS = Object.freeze({
  timeoutMs: 10_000,
  maxStdoutBytes: 65_536,
  maxStderrBytes: 65_536,
  maxStdinBytes: 1_048_576,
  maxArgumentBytes: 131_072,
});

/**
 * Validates options, fills defaults, resolves the root and every executable, filters the
 * environment allow list, and returns a frozen policy. Throws {@link ProcessError}: `invalid_root`,
 * `executable_not_found`, or `invalid_policy` listing the problems.
 */
export function compileProcessPolicy(options: ProcessPolicyOptions): ResolvedProcessPolicy {
  const problems: string[] = [];
  const limits: Record<keyof typeof DEFAULT_PROCESS_LIMITS, number> = { ...DEFAULT_PROCESS_LIMITS };
  for (const key of Object.keys(limits) as (keyof typeof limits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      problems.push(`${key} must be a positive integer, got ${messageOf(value)}`);
    else limits[key] = value;
  }
  if (options.allowShell !== undefined && typeof options.allowShell !== 'boolean')
    problems.push('allowShell must be a boolean');
  if (options.audit !== undefined && typeof options.audit !== 'function') problems.push('audit must be a function');
  const entries = executableEntries(options.executables, problems);
  const hostRules = options.argumentRules ?? {};
  if (typeof hostRules !== 'object' || hostRules === null) problems.push('argumentRules must be a record');
  for (const [name, rule] of Object.entries(hostRules)) {
    if (!entries.some(([entry]) => entry === name))
      problems.push(`argumentRules names '${name}', which is not an allowed executable`);
    else if (rule !== 'unrestricted')
      problems.push(
        ...(typeof rule === 'object' && rule !== null
          ? ruleProblems(name, rule)
          : [`argumentRules.${name} must be a rule or 'unrestricted'`]),
      );
  }
  if (problems.length > 0) throw new ProcessError('invalid_policy', `Invalid process policy: ${problems.join('; ')}.`);
  const searchPath = options.searchPath ?? process.env.PATH ?? '';
  const executables: Record<string, string> = {};
  const argumentRules: Record<string, ArgumentRule> = {};
  for (const [name, spec] of entries) {
    executables[name] = resolveExecutable(name, spec, searchPath);
    const rule = Object.prototype.hasOwnProperty.call(hostRules, name)
      ? hostRules[name]
      : builtInProfile(name, executables[name]);
    if (rule !== undefined && rule !== 'unrestricted') argumentRules[name] = Object.freeze({ ...rule });
  }
  const { kept, dropped } = partitionEnvironmentNames(options.envAllowList ?? []);
  const fixedEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.fixedEnv ?? {}))
    if (!isDeniedEnvironmentName(name) && typeof value === 'string' && !value.includes('\0')) fixedEnv[name] = value;
  const root = confinedRoot(options.root);
  return Object.freeze({
    root: root.path,
    confinedRoot: root,
    executables: Object.freeze(executables),
    envAllowList: Object.freeze(kept),
    droppedEnvNames: Object.freeze(dropped),
    baseEnv: options.baseEnv ?? process.env,
    fixedEnv: Object.freeze(fixedEnv),
    ...limits,
    allowShell: options.allowShell ?? false,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    argumentRules: Object.freeze(argumentRules),
  });
}

/** The built-in profile for an allow-list name, else for the real file's name. */
function builtInProfile(name: string, real: string): ArgumentRule | undefined {
  const own = (key: string) =>
    Object.prototype.hasOwnProperty.call(BUILT_IN_ARGUMENT_PROFILES, key) ? BUILT_IN_ARGUMENT_PROFILES[key] : undefined;
  return own(name) ?? own(path.basename(real));
}

function executableEntries(executables: ProcessPolicyOptions['executables'], problems: string[]): [string, string][] {
  if (typeof executables !== 'object' || executables === null) {
    problems.push('executables must be a record or an array');
    return [];
  }
  const entries: [string, string][] = Array.isArray(executables)
    ? executables.map((spec: unknown) => [
        typeof spec === 'string' ? (spec.split('/').pop() ?? '') : '',
        typeof spec === 'string' ? spec : '',
      ])
    : Object.entries(executables as Record<string, string>);
  for (const [name] of entries)
    if (!EXECUTABLE_NAME_PATTERN.test(name))
      problems.push(`executable name '${name}' must match ${EXECUTABLE_NAME_PATTERN.source}`);
  return entries;
}

function confinedRoot(root: string): ConfinedRoot {
  try {
    return recordFilesystemRoot(root);
  } catch (error) {
    throw new ProcessError('invalid_root', messageOf(error), undefined, { cause: error });
  }
}
