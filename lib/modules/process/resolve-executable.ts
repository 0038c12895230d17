import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ProcessError } from './process-error';

/** Allow-list names the model uses to name an executable. */
export const EXECUTABLE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/**
 * Resolves one allow-list entry to the real absolute path of an executable regular file, once, at
 * configuration time. `spec` is an absolute path, or a bare command name looked up in `searchPath`
 * (only absolute directories count). Throws `executable_not_found` when nothing executable is
 * there, `invalid_policy` for a relative path with a slash.
 */
export function resolveExecutable(name: string, spec: string, searchPath: string): string {
  if (typeof spec !== 'string' || spec.length === 0 || spec.includes('\0'))
    throw new ProcessError('invalid_policy', `The executable '${name}' needs a non-empty path or command name.`);
  let candidates: string[];
  if (spec.includes('/')) {
    if (!path.isAbsolute(spec))
      throw new ProcessError(
        'invalid_policy',
        `The executable '${name}' must be an absolute path or a bare command name, got '${spec}'.`,
      );
    candidates = [spec];
  } else {
    candidates = searchPath
      .split(path.delimiter)
      .filter((directory) => path.isAbsolute(directory))
      .map((directory) => path.join(directory, spec));
  }
  for (const candidate of candidates) {
    const real = executableFile(candidate);
    if (real !== undefined) return real;
  }
  throw new ProcessError(
    'executable_not_found',
    `The executable '${name}' ('${spec}') was not found or is not an executable file.`,
  );
}

function executableFile(candidate: string): string | undefined {
  try {
    const real = realpathSync(candidate);
    if (!statSync(real).isFile()) return undefined;
    accessSync(real, constants.X_OK);
    return real;
  } catch {
    return undefined;
  }
}
