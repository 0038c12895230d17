import { Dirent, Stats } from 'node:fs';

/** Kind of a directory entry as the tools report it. */
export type FilesystemEntryType = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'other';

/** The {@link FilesystemEntryType} of `lstat` stats or a directory entry (links are not followed). */
export function entryTypeOf(entry: Stats | Dirent): FilesystemEntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device';
  return 'other';
}
