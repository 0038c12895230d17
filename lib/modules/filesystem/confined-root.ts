import { constants, promises as fs } from 'node:fs';
import { FilesystemError } from './filesystem-error';
import { errnoOf } from './errno-mapping';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

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

/** The {@link ConfinedRoot} of the directory at `real` now (a real path, see `resolveFilesystemRoot`). Rejects with the system error. */
export async function observeRoot(real: string): Promise<ConfinedRoot> {
  const stats = await fs.stat(real, { bigint: true });
  return Object.freeze({ path: real, dev: stats.dev, ino: stats.ino });
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
    handle = await fs.open(root.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === 'ENOENT') throw new FilesystemError('root_unavailable', 'The root directory no longer exists; nothing was done.', undefined, { cause: error });
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
  return new FilesystemError('root_replaced', 'The root directory was replaced since the toolkit was configured (its path leads to another directory now); nothing was done.');
}
