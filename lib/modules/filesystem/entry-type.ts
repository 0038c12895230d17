import { Dirent, Stats } from 'node:fs';

/** Kind of a directory entry as the tools report it. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'other';

/** The {@link EntryType} of `lstat` stats or a directory entry (links are not followed). */
export function entryTypeOf(entry: Stats | Dirent): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device';
  return 'other';
}
