import { promises as fs } from 'node:fs';
import { FilesystemError } from './filesystem-error';
import { errnoOf } from './errno-mapping';
import { DIRECTORY_OPEN_FLAGS, procFdAvailable } from './proc-fd';

/**
 * A toolkit's root as recorded at construction: its real path and the device and inode of the
 * directory that was there. Every walk starts from a directory opened by `path` and refuses it
 * (`root_replaced`) unless it is that very directory, so a parent of the root swapped for a link,
 * or the root renamed away and another directory put at its path, redirects nothing.
 */
export interface ConfinedRoot {
  /** Real path of the root (no symbolic links), as resolved at construction. */
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * The {@link ConfinedRoot} of the directory at `real` now (a real path, see `realpath`), for a
 * caller that has no root recorded earlier. The directory is opened (the last component not
 * followed) and, where `/proc` exists, its handle must still be named `real`; its device and inode
 * are read from that same handle. Throws {@link FilesystemError} `root_replaced` when a parent was
 * swapped for a link meanwhile; rejects with the system error otherwise.
 */
export async function observeRoot(real: string): Promise<ConfinedRoot> {
  const handle = await fs.open(real, DIRECTORY_OPEN_FLAGS);
  try {
    if (procFdAvailable() && (await fs.readlink(`/proc/self/fd/${handle.fd}`)) !== real) throw replaced();
    const stats = await handle.stat({ bigint: true });
    return Object.freeze({ path: real, dev: stats.dev, ino: stats.ino });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** True when `stats` (of an open directory) are those of `root`'s recorded directory. */
export function isRootDirectory(stats: { readonly dev: bigint; readonly ino: bigint }, root: ConfinedRoot): boolean {
  return stats.dev === root.dev && stats.ino === root.ino;
}

/**
 * Opens the root by its path, the last component not followed, and checks the opened directory is
 * the one recorded at construction. Throws {@link FilesystemError} `root_unavailable` when nothing
 * is at the root's path any more, `root_replaced` when a link, a file or another directory is (or
 * a parent of the root was swapped for a link); other system errors are rethrown.
 */
export async function openRecordedRoot(root: ConfinedRoot): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(root.path, DIRECTORY_OPEN_FLAGS);
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === 'ENOENT')
      throw new FilesystemError(
        'root_unavailable',
        'The root directory no longer exists; nothing was done.',
        undefined,
        { cause: error },
      );
    if (errno === 'ELOOP' || errno === 'ENOTDIR') throw replaced();
    throw error;
  }
  try {
    if (isRootDirectory(await handle.stat({ bigint: true }), root)) return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  await handle.close().catch(() => undefined);
  throw replaced();
}

function replaced(): FilesystemError {
  return new FilesystemError(
    'root_replaced',
    'The root directory was replaced since the toolkit was configured (its path leads to another directory now); nothing was done.',
  );
}
