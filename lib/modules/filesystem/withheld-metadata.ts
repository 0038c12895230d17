import { Stats } from 'node:fs';

/** Why `stat` and `list` leave out an entry's size, times and mode. */
export type WithheldReason = 'hard_link';

/**
 * The reason to withhold an entry's metadata, or undefined to show it. A non-directory with more
 * than one hard link shares its inode (size, times, mode) with a name that may lie outside the root,
 * so `fs_stat` and `fs_list` answer `withheld: 'hard_link'` in place of those fields, as `fs_read`
 * refuses its content (`hard_link`).
 */
export function withheldReason(stats: Stats): WithheldReason | undefined {
  return !stats.isDirectory() && stats.nlink > 1 ? 'hard_link' : undefined;
}
