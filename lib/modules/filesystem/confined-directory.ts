import * as path from 'node:path';
import { escape } from './confined-path';
import { ConfinedRoot } from './confined-root';
import { openDirectory } from './handle-walk';

/**
 * Runs `action` with a path naming the directory `real` (already resolved inside the root, see
 * `resolveExisting`) as it is now, so a swap after the check cannot redirect the action. The
 * directory is reached from the root's checked handle one component at a time, each opened
 * `O_NOFOLLOW | O_DIRECTORY` through the handle of the previous one, with no link allowed on the way
 * (`real` has none, so a link found now was swapped in: `symlink_escape`), and checked inside the
 * root by its handle (see `openDirectory`). `action` gets the handle's `/proc/self/fd/N` path:
 * paths below it resolve from that very directory, and a child process started with it as its
 * working directory enters it (the fork copies the descriptor table; the descriptor is closed on
 * exec only, after the child changed into it). No host path is ever handed on where `/proc` exists;
 * where it does not, `action` gets the walked path (the window between the check and the use
 * remains). `action` should do its work at once; the directory could be moved out of the root by
 * another process after the check.
 */
export async function withConfinedDirectory<T>(
  root: ConfinedRoot,
  real: string,
  display: string,
  action: (directory: string) => Promise<T>,
): Promise<T> {
  const relative = path.relative(root.path, real);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw escape(display);
  const components = relative.split(path.sep).filter((component) => component !== '');
  const directory = await openDirectory(root, components, display, { followLinks: false });
  try {
    return await action(directory.self);
  } finally {
    await directory.close();
  }
}
