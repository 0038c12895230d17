import { ProcessError } from './process-error';
import { messageOf } from '../../errors/message-of';

/** Variables that never reach a child, even when allowed: they inject code or change how programs load. */
export const DENIED_ENVIRONMENT_NAMES: readonly string[] = Object.freeze([
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'IFS',
  'GCONV_PATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
]);

/** Name prefixes that never reach a child: the dynamic loaders' `LD_*` and `DYLD_*`, exported bash functions. */
export const DENIED_ENVIRONMENT_PREFIXES: readonly string[] = Object.freeze(['LD_', 'DYLD_', 'BASH_FUNC_']);

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` may never be passed to a child (see {@link DENIED_ENVIRONMENT_NAMES}). */
export function isDeniedEnvironmentName(name: string): boolean {
  const upper = name.toUpperCase();
  return DENIED_ENVIRONMENT_NAMES.includes(upper) || DENIED_ENVIRONMENT_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/**
 * The environment of one child: the allowed names taken from the host's base environment, then
 * the host's fixed values, then the caller's values. A caller's name outside the allow list is
 * refused (`env_not_allowed`); nothing else reaches the child.
 */
export function buildChildEnvironment(
  allowList: readonly string[],
  base: Readonly<Record<string, string | undefined>>,
  fixed: Readonly<Record<string, string>>,
  requested: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const refusedNames = Object.keys(requested).filter((name) => !allowList.includes(name));
  if (refusedNames.length > 0)
    throw new ProcessError('env_not_allowed', `Environment variable(s) not allowed: ${refusedNames.join(', ')}. Allowed: ${allowList.join(', ') || 'none'}.`, {
      names: refusedNames,
    });
  const environment: Record<string, string> = {};
  for (const name of allowList) {
    const value = base[name];
    if (typeof value === 'string') environment[name] = value;
  }
  Object.assign(environment, fixed);
  for (const [name, value] of Object.entries(requested)) {
    if (value.includes('\0')) throw new ProcessError('invalid_arguments', `The value of '${name}' contains a NUL byte.`);
    environment[name] = value;
  }
  return environment;
}

/** Splits configured names into those kept and those dropped; throws `invalid_policy` for a malformed name. */
export function partitionEnvironmentNames(names: readonly string[]): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const name of names) {
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) throw new ProcessError('invalid_policy', `'${messageOf(name)}' is not a valid environment variable name.`);
    (isDeniedEnvironmentName(name) ? dropped : kept).push(name);
  }
  return { kept, dropped };
}
