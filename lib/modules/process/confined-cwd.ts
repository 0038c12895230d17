import { promises as fs } from 'node:fs';
import { resolveExisting } from '../filesystem/confined-path';
import { ConfinedRoot, openRecordedRoot } from '../filesystem/confined-root';
import { splitRelativePath } from '../filesystem/path-rules';
import { workingDirectoryError } from './process-errno';

/** A working directory resolved inside the root. */
export interface ResolvedWorkingDirectory {
  /** Real absolute path: for the spawn only, never shown to the model. */
  readonly real: string;
  /** The path as the caller gave it, relative to the root ('.' by default): for messages. */
  readonly display: string;
}

/**
 * Resolves a caller's working directory inside the root with the Filesystem toolkit's rules (no
 * `..`, no absolute path, links followed and checked), once the root is known to be the directory
 * recorded at construction. Throws `root_replaced`, `root_unavailable`, `cwd_outside_root`,
 * `invalid_arguments` (bad type, NUL byte, too long), `cwd_not_found` (missing, not a directory, or
 * removed while it is checked) or `cwd_not_accessible`; never an error naming a host path.
 */
export async function resolveWorkingDirectory(root: ConfinedRoot, cwd: unknown): Promise<ResolvedWorkingDirectory> {
  const display = typeof cwd === 'string' ? cwd : '.';
  try {
    const components = splitRelativePath(cwd ?? '.', 'cwd');
    await (await openRecordedRoot(root)).close();
    const resolved = await resolveExisting(root.path, components, display);
    if (!(await fs.stat(resolved.real)).isDirectory())
      throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    return { real: resolved.real, display };
  } catch (error) {
    throw workingDirectoryError(error, display);
  }
}
