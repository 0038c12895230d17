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

/** The parent of a path to create or replace, resolved inside the root, and the last component. */
export interface ResolvedParent {
  readonly display: string;
  /** Real path of the parent directory; inside the root. */
  readonly parent: string;
  /** Last component, never `.` or `..`. */
  readonly name: string;
  /** `parent/name`; the last component is not followed. */
  readonly target: string;
}

/**
 * Resolves an existing path: `realpath` of `root/components`, then checks the result is still
 * inside the root (`symlink_escape` otherwise). When the path does not exist, the deepest existing
 * ancestor is checked too, so a missing file under an escaping link reports `symlink_escape`, not
 * `not_found`, and says nothing about what lies outside.
 */
export async function resolveExisting(root: string, components: readonly string[], display: string): Promise<ResolvedPath> {
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

/**
 * Resolves the parent directory of a path to be created, replaced or removed; the last
 * component itself is never followed. Refuses the root itself (it has no parent inside the root).
 */
export async function resolveParent(root: string, components: readonly string[], display: string): Promise<ResolvedParent> {
  if (components.length === 0)
    throw new FilesystemError('operation_not_allowed', 'The root directory itself cannot be the target of this operation.', display);
  const parent = await resolveExisting(root, components.slice(0, -1), display);
  const stats = await fs.stat(parent.real).catch((error: unknown) => {
    throw toFilesystemError(error, display, 'resolve the parent of');
  });
  if (!stats.isDirectory()) throw new FilesystemError('not_a_directory', `The parent of '${display}' is not a directory.`, display);
  const name = components[components.length - 1];
  return { display, parent: parent.real, name, target: path.join(parent.real, name) };
}

/** The refusal for a path whose links lead outside the root. */
export function escape(display: string): FilesystemError {
  return new FilesystemError('symlink_escape', `'${display}' resolves through a symbolic link to a location outside the root.`, display);
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
    if (link?.isSymbolicLink()) throw new FilesystemError('symlink_escape', `'${display}' passes through a symbolic link that does not resolve.`, display);
    return;
  }
}
