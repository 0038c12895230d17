import { constants, promises as fs } from 'node:fs';
import { toFilesystemError } from './errno-mapping';
import { escape } from './confined-path';
import { isInsideRoot } from './path-rules';

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/**
 * Runs `action` with a path that names the directory `real` (already resolved inside `root`, see
 * `resolveExisting`) as it is now, so a swap after the check cannot redirect the action: the
 * directory is opened with `O_DIRECTORY | O_NOFOLLOW` (a last component swapped for a link is
 * refused as `symlink_escape`), the open handle's path is read back from `/proc/self/fd` and must lie
 * inside the root (a parent swapped for a link is refused too), and `action` gets the handle's `/proc`
 * path: paths below it resolve from that very directory, as the `*at` system calls would. Where
 * `/proc` is not available, `action` gets `real` after the same open check (the window between the
 * two remains). `action` should do its work at once; the directory could be moved out of the root by
 * another process after the check.
 */
export async function withConfinedDirectory<T>(root: string, real: string, display: string, action: (directory: string) => Promise<T>): Promise<T> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const link = await fs.lstat(real).then((stats) => stats.isSymbolicLink(), () => false);
    throw link ? escape(display) : toFilesystemError(error, display, 'open the directory of');
  }
  try {
    const byHandle = `/proc/self/fd/${handle.fd}`;
    const where = await fs.readlink(byHandle).catch(() => undefined);
    if (where !== undefined && !isInsideRoot(root, where)) throw escape(display);
    return await action(where === undefined ? real : byHandle);
  } finally {
    await handle.close();
  }
}
