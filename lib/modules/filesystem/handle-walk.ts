import { promises as fs, Stats } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { escape } from './confined-path';
import { ConfinedRoot } from './confined-root';
import { DirectoryHandle } from './directory-handle';
import { FilesystemError } from './filesystem-error';
import { isInsideRoot } from './path-rules';

/** Most symbolic links one resolution follows (Linux `MAXSYMLINKS`); more is refused as `symlink_escape`. */
export const MAX_LINK_HOPS = 40;

/** How {@link openDirectory} walks. */
export interface WalkOptions {
  /** Create missing directories on the way (each through the handle of its parent). @default false */
  readonly create?: boolean;
  /** Called once per directory created. */
  readonly onCreate?: () => void;
  /** Follow links inside the root; when false, a link anywhere on the way is refused. @default true */
  readonly followLinks?: boolean;
}

/** An entry of an open directory: what `lstat` showed of `name`, or undefined when it does not exist. */
export interface EntryInDirectory {
  readonly directory: DirectoryHandle;
  /** The last component; `.` when the entry is the directory itself (a link to a directory followed to its end). */
  readonly name: string;
  readonly stats: Stats | undefined;
}

/**
 * Opens the directory `components` name below the root, one component at a time, each opened
 * `O_NOFOLLOW | O_DIRECTORY` through the handle of the previous one (see {@link DirectoryHandle}).
 * A link on the way is read through its directory's handle and its target resolved against the
 * components walked so far; a target outside the root is refused (`symlink_escape`), one inside
 * restarts the walk from the root with the target's components. The root itself is opened by its
 * path and must be the directory recorded at construction (`root_replaced`, `root_unavailable`
 * otherwise), before the first step and at every restart. So every step acts on a directory that
 * was inside the root when it was opened, and nothing below the root is ever resolved by a host
 * path. The caller closes the handle.
 */
export async function openDirectory(
  root: ConfinedRoot,
  components: readonly string[],
  display: string,
  options: WalkOptions = {},
): Promise<DirectoryHandle> {
  let pending = [...components];
  let hops = 0;
  let current = await openRoot(root, display);
  try {
    while (pending.length > 0) {
      const name = pending.shift() as string;
      const step = await stepInto(current, name, display, options);
      if (step instanceof DirectoryHandle) {
        await current.close();
        current = step;
        continue;
      }
      hops += 1;
      if (hops > MAX_LINK_HOPS || options.followLinks === false)
        throw tooManyLinks(display, options.followLinks === false);
      pending = [...linkTargetComponents(root.path, current.components, step.link, display), ...pending];
      await current.close();
      current = await openRoot(root, display);
    }
    if (!(await current.stillInside(root))) throw escape(display);
    return current;
  } catch (error) {
    await current.close();
    throw toFilesystemError(error, display, 'resolve');
  }
}

/**
 * The parent directory of the entry `components` name, open, and its last component (never
 * followed). Refuses the root itself (`operation_not_allowed`): it has no parent inside the root.
 */
export async function openParent(
  root: ConfinedRoot,
  components: readonly string[],
  display: string,
): Promise<EntryInDirectory> {
  if (components.length === 0)
    throw new FilesystemError(
      'operation_not_allowed',
      'The root directory itself cannot be the target of this operation.',
      display,
    );
  const directory = await openDirectory(root, components.slice(0, -1), display);
  const name = components[components.length - 1];
  return { directory, name, stats: await lstatIn(directory, name, display) };
}

/**
 * The entry `components` name, with a last component that is a link followed (inside the root
 * only, up to {@link MAX_LINK_HOPS} links) to the entry it names: its directory, open, and its name
 * there. `stats` is undefined when that entry does not exist (a file may be created there).
 */
export async function openEntry(
  root: ConfinedRoot,
  components: readonly string[],
  display: string,
): Promise<EntryInDirectory> {
  let target = [...components];
  for (let hops = 0; ; hops += 1) {
    if (hops > MAX_LINK_HOPS) throw tooManyLinks(display, false);
    const directory = await openDirectory(root, target.slice(0, -1), display);
    const name = target.length === 0 ? '.' : target[target.length - 1];
    const stats = await lstatIn(directory, name, display);
    if (!stats?.isSymbolicLink()) return { directory, name, stats };
    try {
      target = linkTargetComponents(root.path, directory.components, await fs.readlink(directory.at(name)), display);
    } catch (error) {
      throw toFilesystemError(error, display, 'resolve');
    } finally {
      await directory.close();
    }
  }
}

/**
 * `lstat` of the entry `name` of `directory`; undefined when it does not exist. Closes `directory` on any other
 * failure.
 */
async function lstatIn(directory: DirectoryHandle, name: string, display: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(directory.at(name));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    await directory.close();
    throw toFilesystemError(error, display, 'inspect');
  }
}

/**
 * The root-relative components a link's `target` names, read in the directory `base` (components
 * from the root). Resolved lexically: `base` holds no link, so `..` is its real parent. A target
 * outside the root is refused (`symlink_escape`).
 */
export function linkTargetComponents(root: string, base: readonly string[], target: string, display: string): string[] {
  const absolute = path.resolve(path.join(root, ...base), target);
  if (!isInsideRoot(root, absolute)) throw escape(display);
  return path
    .relative(root, absolute)
    .split(path.sep)
    .filter((component) => component !== '');
}

async function openRoot(root: ConfinedRoot, display: string): Promise<DirectoryHandle> {
  return DirectoryHandle.openRoot(root).catch((error: unknown) => {
    throw toFilesystemError(error, display, 'open the root for');
  });
}

/** Attempts at one step whose entry keeps changing between a directory and a link, before refusing. */
const STEP_ATTEMPTS = 3;

/** One step of a walk: the child directory, opened; or the target of the link found there. */
async function stepInto(
  current: DirectoryHandle,
  name: string,
  display: string,
  options: WalkOptions,
): Promise<DirectoryHandle | { link: string }> {
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt += 1) {
    try {
      return await current.openChild(name);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ENOENT' && options.create === true) return createChild(current, name, display, options);
      if (errno !== 'ENOTDIR' && errno !== 'ELOOP') throw error;
    }
    // Not a directory when opened: a link (read through the same handle), or something else.
    try {
      return { link: await fs.readlink(current.at(name)) };
    } catch (error) {
      if (errnoOf(error) !== 'EINVAL') throw error;
    }
    const stats = await fs.lstat(current.at(name));
    if (!stats.isDirectory() && !stats.isSymbolicLink())
      throw new FilesystemError(
        'not_a_directory',
        `'${display}' cannot be reached: '${name}' is not a directory.`,
        display,
      );
    // It changed between the two looks (another process is renaming it): look again.
  }
  throw new FilesystemError(
    'symlink_escape',
    `'${display}' kept changing between a directory and a link during the call; refused.`,
    display,
  );
}

/**
 * Makes the directory `name` through the handle of its parent and opens it `O_NOFOLLOW` through the
 * same handle. When it was swapped for a link or a file in between, the creation is undone through
 * that handle (`rmdir` never follows a link and removes only an empty directory) and refused.
 */
async function createChild(
  current: DirectoryHandle,
  name: string,
  display: string,
  options: WalkOptions,
): Promise<DirectoryHandle> {
  await fs.mkdir(current.at(name)).then(options.onCreate, (error: unknown) => {
    if (errnoOf(error) !== 'EEXIST') throw toFilesystemError(error, display, 'create the directory');
  });
  try {
    return await current.openChild(name);
  } catch (error) {
    const errno = errnoOf(error);
    if (errno !== 'ENOTDIR' && errno !== 'ELOOP') throw error;
    await fs.rmdir(current.at(name)).catch(() => undefined);
    throw escape(display);
  }
}

function tooManyLinks(display: string, noLinksAllowed: boolean): FilesystemError {
  return new FilesystemError(
    'symlink_escape',
    noLinksAllowed
      ? `'${display}' became a symbolic link during the call; refused.`
      : `'${display}' passes through too many symbolic links.`,
    display,
  );
}
