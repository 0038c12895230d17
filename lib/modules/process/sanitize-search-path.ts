import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isInsideRoot } from '../filesystem/path-rules';

/**
 * `PATH` without the entries a caller could fill with programs of its own: empty and relative
 * entries (they name the working directory or a directory below it) and entries inside `root`,
 * lexically or through links. Returns `undefined` when no entry is left: an empty `PATH` would make
 * a search look in the working directory, so the variable is then left out (programs fall back to
 * their built-in system path).
 */
export function sanitizeSearchPath(root: string, value: string): string | undefined {
  const kept = value.split(':').filter((entry) => {
    if (entry.length === 0 || !path.isAbsolute(entry)) return false;
    const resolved = path.resolve(entry);
    if (isInsideRoot(root, resolved)) return false;
    return !isInsideRoot(root, realOrSelf(resolved));
  });
  return kept.length === 0 ? undefined : kept.join(':');
}

function realOrSelf(entry: string): string {
  try {
    return realpathSync(entry);
  } catch {
    return entry;
  }
}
