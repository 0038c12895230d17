import { constants, promises as fs, Stats } from 'node:fs';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { escape } from './confined-path';
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
  if (!stats.isFile()) throw new FilesystemError('not_a_regular_file', `'${display}' is a ${describeType(stats)}, not a regular file.`, display);
  if (stats.nlink > 1)
    throw new FilesystemError('hard_link', `'${display}' has ${stats.nlink} hard links; files with more than one link are refused.`, display);
}

/**
 * Opens `real` (a path already resolved inside `root`, see `resolveExisting`) with `O_NOFOLLOW |
 * O_NONBLOCK`, creating it with `O_EXCL` when `create` is set and it does not exist. Before the open,
 * `lstat` must show a single-linked regular file; after the open, the handle itself is checked: it
 * must be the same file (device and inode), still a single-linked regular file, and its path (read
 * back from `/proc/self/fd` where available) inside the root. A swap of the file or of a parent
 * directory between the check and the open is refused as `symlink_escape`.
 */
export async function openConfinedFile(root: string, real: string, display: string, mode: OpenMode, create = false): Promise<fs.FileHandle> {
  const before = await fs.lstat(real).catch((error: unknown) => {
    if (create && errnoOf(error) === 'ENOENT') return undefined;
    throw toFilesystemError(error, display, 'inspect');
  });
  if (before !== undefined) checkRegularFile(before, display);
  const base = mode === 'read' ? O_RDONLY : O_WRONLY | (mode === 'append' ? O_APPEND : 0);
  const flags = base | O_NOFOLLOW | O_NONBLOCK | (before === undefined ? O_CREAT | O_EXCL : 0);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, flags, 0o644);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') throw new FilesystemError('already_exists', `'${display}' appeared while it was being created; try again.`, display);
    throw toFilesystemError(error, display, 'open');
  }
  try {
    await verifyHandle(handle, root, real, display, before);
    return handle;
  } catch (error) {
    if (before === undefined) await removeCreated(handle, real);
    await handle.close();
    throw error;
  }
}

/** Undoes an `O_EXCL` creation that failed verification, when `real` still names the created inode. */
async function removeCreated(handle: fs.FileHandle, real: string): Promise<void> {
  try {
    const [opened, current] = await Promise.all([handle.stat(), fs.lstat(real)]);
    if (opened.dev === current.dev && opened.ino === current.ino) await fs.unlink(real);
  } catch {
    // Best effort: the file is empty and was never written.
  }
}

async function verifyHandle(handle: fs.FileHandle, root: string, real: string, display: string, before: Stats | undefined): Promise<void> {
  const opened = await handle.stat();
  if (before !== undefined && (opened.dev !== before.dev || opened.ino !== before.ino))
    throw new FilesystemError('symlink_escape', `'${display}' changed between the check and the open; refused.`, display);
  checkRegularFile(opened, display);
  const handlePath = await pathOfHandle(handle, real);
  if (!isInsideRoot(root, handlePath)) throw escape(display);
}

/**
 * The path of an open handle: `/proc/self/fd/N` on Linux; elsewhere the realpath of `real`,
 * accepted only when it still names the same inode as the handle.
 */
async function pathOfHandle(handle: fs.FileHandle, real: string): Promise<string> {
  try {
    return await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const again = await fs.realpath(real);
    const [opened, current] = await Promise.all([handle.stat(), fs.stat(again)]);
    if (opened.dev !== current.dev || opened.ino !== current.ino) return '';
    return again;
  }
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
