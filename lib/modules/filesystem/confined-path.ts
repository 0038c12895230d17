import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { FilesystemError } from './filesystem-error';
import { isInsideRoot } from './path-rules';

/** A path resolved inside the root: every symbolic link followed and checked. */
export interface ResolvedPath {
  /** What the caller gave, for messages and audit. */
  readonly display: string;
  /** Absolute path with no symbolic link in any component; inside the root. */
  readonly real: string;
}

/**
 * Resolves an existing path: `realpath` of `root/components`, then checks the result is still
 * inside the root (`symlink_escape` otherwise). When the path does not exist, the deepest existing
 * ancestor is checked too, so a missing file under an escaping link reports `symlink_escape`, not
 * `not_found`, and says nothing about what lies outside.
 */
export async function resolveExisting(
  root: string,
  components: readonly string[],
  display: string,
): Promise<ResolvedPath> {
  const lexical = path.join(root, ...components);
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') await checkAncestors(root, components, display);
    throw toFilesystemError(error, display, 'resolve');
  }
  if (!isInsideRoot(root, real)) throw escape(display);
  return { display, real };
}

/** The refusal for a path whose links lead outside the root. */
export function escape(display: string): FilesystemError {
  return new FilesystemError(
    'symlink_escape',
    `'${display}' resolves through a symbolic link to a location outside the root.`,
    display,
  );
}

async function checkAncestors(root: string, components: readonly string[], display: string): Promise<void> {
  for (let count = components.length - 1; count >= 0; count -= 1) {
    let real: string;
    try {
      real = await fs.realpath(path.join(root, ...components.slice(0, count)));
    } catch {
      continue;
    }
    if (!isInsideRoot(root, real)) throw escape(display);
    const link = await fs.lstat(path.join(root, ...components.slice(0, count + 1))).catch(() => undefined);
    if (link?.isSymbolicLink())
      throw new FilesystemError(
        'symlink_escape',
        `'${display}' passes through a symbolic link that does not resolve.`,
        display,
      );
    return;
  }
}
