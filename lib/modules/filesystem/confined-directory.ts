import { constants, Dirent, promises as fs } from 'node:fs';
import { toFilesystemError } from './errno-mapping';
import { escape } from './confined-path';
import { isInsideRoot } from './path-rules';

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/**
 * The entries of a directory already resolved inside `root` (see `resolveExisting`), read so that a
 * swap after the check cannot redirect the read: the directory is opened with `O_DIRECTORY |
 * O_NOFOLLOW` (a last component swapped for a link fails, and is refused as `symlink_escape`),
 * the open handle's path is read back from `/proc/self/fd` and must lie inside the root (a parent
 * swapped for a link is refused too), and the entries are read through that handle's `/proc` path,
 * so they are those of the directory that was checked. Where `/proc` is not available, the entries
 * are read by path after the same open check (the window between the two remains).
 */
export async function readConfinedDirectory(root: string, real: string, display: string): Promise<Dirent[]> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const link = await fs.lstat(real).then((stats) => stats.isSymbolicLink(), () => false);
    throw link ? escape(display) : toFilesystemError(error, display, 'list');
  }
  try {
    const byHandle = `/proc/self/fd/${handle.fd}`;
    const where = await fs.readlink(byHandle).catch(() => undefined);
    if (where !== undefined && !isInsideRoot(root, where)) throw escape(display);
    return await fs.readdir(where === undefined ? real : byHandle, { withFileTypes: true });
  } catch (error) {
    throw toFilesystemError(error, display, 'list');
  } finally {
    await handle.close();
  }
}
