import { promises as fs, Stats } from 'node:fs';
import { errnoOf } from './errno-mapping';
import { DirectoryHandle } from './directory-handle';
import { FilesystemError } from './filesystem-error';

/**
 * Removes the entry `name` of `directory` (a checked handle): `unlink` for anything but a directory
 * (a link goes, never its target), `rmdir` for a directory, and with `recursive` its content first.
 * A tree is walked through handles: each subdirectory is opened `O_NOFOLLOW` through the handle of its
 * parent and its entries removed through its own handle, so a subdirectory swapped for a link during
 * the walk is removed as a link, and nothing outside the root is reached. Rejects with the system error.
 */
export async function removeEntry(
  directory: DirectoryHandle,
  name: string,
  stats: Stats,
  recursive: boolean,
  signal?: AbortSignal,
): Promise<void> {
  if (!stats.isDirectory()) return fs.unlink(directory.at(name));
  if (recursive) await removeContent(directory, name, signal);
  await fs.rmdir(directory.at(name));
}

async function removeContent(parent: DirectoryHandle, name: string, signal: AbortSignal | undefined): Promise<void> {
  let directory: DirectoryHandle;
  try {
    directory = await parent.openChild(name);
  } catch (error) {
    const errno = errnoOf(error);
    // No longer a directory (a link or a file swapped in): the caller's rmdir refuses it; nothing to empty.
    if (errno === 'ENOTDIR' || errno === 'ELOOP') return;
    throw error;
  }
  try {
    for (const entry of await fs.readdir(directory.self, { withFileTypes: true })) {
      if (signal?.aborted)
        throw new FilesystemError('cancelled', 'The delete call was cancelled; part of the tree may remain.');
      if (entry.isDirectory()) {
        await removeContent(directory, entry.name, signal);
        await fs.rmdir(directory.at(entry.name)).catch((error: unknown) => {
          // Swapped for a link after it was emptied: remove the link, never what it points to.
          if (errnoOf(error) === 'ENOTDIR') return fs.unlink(directory.at(entry.name));
          throw error;
        });
      } else {
        await fs.unlink(directory.at(entry.name));
      }
    }
  } finally {
    await directory.close();
  }
}
