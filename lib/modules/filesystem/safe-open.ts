import { constants, promises as fs, Stats } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { escape } from './confined-path';
import { ConfinedRoot, observeRoot } from './confined-root';
import { DirectoryHandle } from './directory-handle';
import { procFdAvailable } from './proc-fd';
import { FilesystemError } from './filesystem-error';
import { isInsideRoot } from './path-rules';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

/** How {@link openConfinedFile} opens a file. */
export type OpenMode = 'read' | 'write' | 'append';

/**
 * Refuses anything but a single-linked regular file. A FIFO, socket or device is refused before it
 * is opened (opening one can block or have effects); a file with more than one hard link is refused
 * because the other name may lie outside the root, and reading or writing it would cross the boundary
 * without any path showing it.
 */
export function checkRegularFile(stats: Stats, display: string): void {
  if (stats.isSymbolicLink()) throw escape(display);
  if (!stats.isFile())
    throw new FilesystemError(
      'not_a_regular_file',
      `'${display}' is a ${describeType(stats)}, not a regular file.`,
      display,
    );
  if (stats.nlink > 1)
    throw new FilesystemError(
      'hard_link',
      `'${display}' has ${stats.nlink} hard links; files with more than one link are refused.`,
      display,
    );
}

/** A file opened by {@link openFileIn}, and whether this call created it. */
export interface OpenedFile {
  readonly handle: fs.FileHandle;
  readonly created: boolean;
}

/**
 * Opens the entry `name` of `directory` (a checked handle, see `openDirectory`) with `O_NOFOLLOW |
 * O_NONBLOCK`, creating it with `O_EXCL` when `create` is set and it does not exist. Before the open,
 * `lstat` must show a single-linked regular file; after the open, the handle itself is checked: the
 * same file (device and inode), still a single-linked regular file, inside the root by `/proc`. The
 * path is resolved from the directory handle, never from the root's host path, so a parent swapped
 * for a link meanwhile changes nothing: the file is opened (or created) in the directory that was
 * checked. A creation that fails the check is undone through the same handle.
 */
export async function openFileIn(
  root: ConfinedRoot,
  directory: DirectoryHandle,
  name: string,
  display: string,
  mode: OpenMode,
  create = false,
): Promise<OpenedFile> {
  const where = directory.at(name);
  const before = await fs.lstat(where).catch((error: unknown) => {
    if (create && errnoOf(error) === 'ENOENT') return undefined;
    throw toFilesystemError(error, display, 'inspect');
  });
  if (before !== undefined) checkRegularFile(before, display);
  const base = mode === 'read' ? O_RDONLY : O_WRONLY | (mode === 'append' ? O_APPEND : 0);
  const flags = base | O_NOFOLLOW | O_NONBLOCK | (before === undefined ? O_CREAT | O_EXCL : 0);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(where, flags, 0o644);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST')
      throw new FilesystemError(
        'already_exists',
        `'${display}' appeared while it was being created; try again.`,
        display,
      );
    throw toFilesystemError(error, display, 'open');
  }
  try {
    await verifyHandle(handle, root, directory, name, display, before);
    return { handle, created: before === undefined };
  } catch (error) {
    if (before === undefined) await removeCreated(handle, directory, name);
    await handle.close().catch(() => undefined);
    throw toFilesystemError(error, display, 'open');
  }
}

/**
 * Opens `real` (a path already resolved inside `root`, see `resolveExisting`) like
 * {@link openFileIn}: its parent directory is opened `O_NOFOLLOW` and checked inside the root by its
 * handle, and the file is opened through that handle. A swap of the file or of a parent directory
 * between the check and the open is refused as `symlink_escape`. `root` is a {@link ConfinedRoot}
 * recorded earlier, or a real path taken as the directory there now.
 */
export async function openConfinedFile(
  root: ConfinedRoot | string,
  real: string,
  display: string,
  mode: OpenMode,
  create = false,
): Promise<fs.FileHandle> {
  let directory: DirectoryHandle;
  let confined: ConfinedRoot;
  try {
    confined = typeof root === 'string' ? await observeRoot(root) : root;
    directory = await DirectoryHandle.openChecked(confined, path.dirname(real));
  } catch (error) {
    const code = errnoOf(error);
    throw code === 'ENOTDIR' || code === 'ELOOP'
      ? escape(display)
      : toFilesystemError(error, display, 'open the directory of');
  }
  try {
    if (!(await directory.stillInside(confined))) throw escape(display);
    return (await openFileIn(confined, directory, path.basename(real), display, mode, create)).handle;
  } finally {
    await directory.close();
  }
}

/**
 * Undoes an `O_EXCL` creation that failed verification, through the directory handle, when `name` still names the
 * created inode.
 */
async function removeCreated(handle: fs.FileHandle, directory: DirectoryHandle, name: string): Promise<void> {
  try {
    const [opened, current] = await Promise.all([handle.stat(), fs.lstat(directory.at(name))]);
    if (opened.dev === current.dev && opened.ino === current.ino) await fs.unlink(directory.at(name));
  } catch {
    // Best effort: the file is empty and was never written.
  }
}

/**
 * Checks an opened file: the same file `lstat` showed, a single-linked regular file, inside the
 * root. Inside is read from `/proc`; when `/proc` cannot name the file (a path longer than
 * `PATH_MAX`), the file must still be the entry `name` of `directory` and `directory` still inside
 * the root (see {@link DirectoryHandle.stillInside}). A check that cannot be made refuses.
 */
async function verifyHandle(
  handle: fs.FileHandle,
  root: ConfinedRoot,
  directory: DirectoryHandle,
  name: string,
  display: string,
  before: Stats | undefined,
): Promise<void> {
  const opened = await handle.stat();
  if (before !== undefined && (opened.dev !== before.dev || opened.ino !== before.ino))
    throw new FilesystemError(
      'symlink_escape',
      `'${display}' changed between the check and the open; refused.`,
      display,
    );
  checkRegularFile(opened, display);
  if (!procFdAvailable()) return;
  let where: string;
  try {
    where = await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const entry = await fs.lstat(directory.at(name)).catch(() => undefined);
    const sameEntry = entry !== undefined && entry.dev === opened.dev && entry.ino === opened.ino;
    if (sameEntry && (await directory.stillInside(root))) return;
    throw escape(display);
  }
  if (!isInsideRoot(root.path, where)) throw escape(display);
}

/** A short name of a file's type, for messages. */
export function describeType(stats: Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSymbolicLink()) return 'symbolic link';
  return stats.isFile() ? 'regular file' : 'special file';
}
