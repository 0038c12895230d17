import { promises as fs } from 'node:fs';
import { resolveExisting } from '../filesystem/confined-path';
import { FilesystemError } from '../filesystem/filesystem-error';
import { splitRelativePath } from '../filesystem/path-rules';
import { ProcessError } from './process-error';

/**
 * Resolves a caller's working directory inside the root with the Filesystem toolkit's rules (no
 * `..`, no absolute path, links followed and checked). Throws `cwd_outside_root`, `invalid_arguments`
 * (bad type, NUL byte, too long) or `cwd_not_found` (missing, or not a directory).
 */
export async function resolveWorkingDirectory(root: string, cwd: unknown): Promise<string> {
  const display = typeof cwd === 'string' ? cwd : '.';
  try {
    const resolved = await resolveExisting(root, splitRelativePath(cwd ?? '.', 'cwd'), display);
    if (!(await fs.stat(resolved.real)).isDirectory()) throw new ProcessError('cwd_not_found', `The working directory '${display}' is not a directory.`);
    return resolved.real;
  } catch (error) {
    if (!(error instanceof FilesystemError)) throw error;
    if (error.code === 'path_outside_root' || error.code === 'symlink_escape')
      throw new ProcessError('cwd_outside_root', `Working directory refused: ${error.message}`, { cwd: display });
    if (error.refusal) throw new ProcessError('invalid_arguments', `Working directory refused: ${error.message}`);
    throw new ProcessError('cwd_not_found', `The working directory '${display}' does not exist.`, { cwd: display });
  }
}
