import { ProcessError } from './process-error';
import { messageOf } from '../../errors/message-of';
import { isDeniedEnvironmentName, isHostOnlyEnvironmentName } from './environment-denial';
import { sanitizeSearchPath } from './sanitize-search-path';

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment of one child: the allowed names taken from the host's base environment, then
 * the host's fixed values, then the caller's values. A caller's name outside the allow list, or one
 * only the host may set (`HOME`, `XDG_*`), is refused (`env_not_allowed`); nothing else reaches the
 * child. `PATH`, from whichever source, keeps only absolute entries outside `root`.
 */
export function buildChildEnvironment(
  root: string,
  allowList: readonly string[],
  base: Readonly<Record<string, string | undefined>>,
  fixed: Readonly<Record<string, string>>,
  requested: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const refusedNames = Object.keys(requested).filter(
    (name) => !allowList.includes(name) || isHostOnlyEnvironmentName(name),
  );
  if (refusedNames.length > 0)
    throw new ProcessError(
      'env_not_allowed',
      `Environment variable(s) not allowed: ${refusedNames.join(', ')}. Allowed: ${callerSettableNames(allowList).join(', ') || 'none'}.`,
      {
        names: refusedNames,
      },
    );
  const environment: Record<string, string> = {};
  for (const name of allowList) {
    const value = base[name];
    if (typeof value === 'string') environment[name] = value;
  }
  Object.assign(environment, fixed);
  for (const [name, value] of Object.entries(requested)) {
    if (value.includes('\0'))
      throw new ProcessError('invalid_arguments', `The value of '${name}' contains a NUL byte.`);
    environment[name] = value;
  }
  if (environment.PATH !== undefined) {
    const searchPath = sanitizeSearchPath(root, environment.PATH);
    if (searchPath === undefined) delete environment.PATH;
    else environment.PATH = searchPath;
  }
  return environment;
}

/** The allowed names a caller may set: the allow list without the host-only names. */
export function callerSettableNames(allowList: readonly string[]): string[] {
  return allowList.filter((name) => !isHostOnlyEnvironmentName(name));
}

/** Splits configured names into those kept and those dropped; throws `invalid_policy` for a malformed name. */
export function partitionEnvironmentNames(names: readonly string[]): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const name of names) {
    if (typeof name !== 'string' || !NAME_PATTERN.test(name))
      throw new ProcessError('invalid_policy', `'${messageOf(name)}' is not a valid environment variable name.`);
    (isDeniedEnvironmentName(name) ? dropped : kept).push(name);
  }
  return { kept, dropped };
}
