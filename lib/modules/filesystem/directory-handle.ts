import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ConfinedRoot, isRootDirectory, openRecordedRoot } from './confined-root';
import { isInsideRoot } from './path-rules';
import { DIRECTORY_OPEN_FLAGS, procFdAvailable } from './proc-fd';

/** Most `..` steps {@link DirectoryHandle.stillInside} takes looking for the root; a deeper directory is refused. */
export const MAX_ANCESTRY_STEPS = 4096;

/**
 * An open directory inside the root, reached from the root one component at a time, each opened
 * `O_NOFOLLOW` relative to the previous one. {@link DirectoryHandle.at} names an entry of this very
 * directory (`/proc/self/fd/N/name`), so an operation on that path acts where the handle is, whatever
 * was renamed or swapped for a link along the way since: the `*at` system calls, through `/proc`.
 * Without `/proc`, `at` falls back to the absolute path the handle was opened by (the window between
 * the check and the use remains; see the README's known limits).
 */
export class DirectoryHandle {
  private constructor(
    private readonly handle: fs.FileHandle,
    /** Components from the root to this directory, no link among them. */
    readonly components: readonly string[],
    private readonly absolute: string,
  ) {}

  /**
   * Opens the root and checks it is the directory recorded at construction (see
   * `openRecordedRoot`: `root_unavailable`, `root_replaced`). Rejects with the system error otherwise.
   */
  static async openRoot(root: ConfinedRoot): Promise<DirectoryHandle> {
    return new DirectoryHandle(await openRecordedRoot(root), [], root.path);
  }

  /**
   * Opens an absolute path already checked inside `root` as a directory handle (the last component
   * not followed), for callers that hold a path, not components. The handle is not known to be
   * inside the root until {@link stillInside} says so. Rejects with the system error.
   */
  static async openChecked(root: ConfinedRoot, absolute: string): Promise<DirectoryHandle> {
    const components = path
      .relative(root.path, absolute)
      .split(path.sep)
      .filter((component) => component !== '');
    return new DirectoryHandle(await fs.open(absolute, DIRECTORY_OPEN_FLAGS), components, absolute);
  }

  /** A path naming the entry `name` of this very directory; never followed by this class. */
  at(name: string): string {
    return procFdAvailable() ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.absolute, name);
  }

  /** A path naming this very directory (for `readdir`). */
  get self(): string {
    return procFdAvailable() ? `/proc/self/fd/${this.handle.fd}` : this.absolute;
  }

  /** The root-relative path of this directory, `.` for the root, for results. */
  get relative(): string {
    return this.components.length === 0 ? '.' : this.components.join('/');
  }

  /**
   * Opens the entry `name` of this directory as a directory handle, not following a link. Rejects with the system
   * error.
   */
  async openChild(name: string): Promise<DirectoryHandle> {
    return new DirectoryHandle(
      await fs.open(this.at(name), DIRECTORY_OPEN_FLAGS),
      [...this.components, name],
      path.join(this.absolute, name),
    );
  }

  /**
   * True when the directory lies inside `root` now: by the path `/proc` gives for the handle, or,
   * when `/proc` cannot give one (a path longer than `PATH_MAX` makes `readlink` fail with
   * `ENAMETOOLONG`), by walking up from the handle through `..` until the root's recorded directory
   * is met (inside) or the filesystem's root, an error or {@link MAX_ANCESTRY_STEPS} steps (not
   * inside). A check that cannot be made answers false, never true. Without `/proc` it cannot tell
   * and answers true (see the README's known limits).
   */
  async stillInside(root: ConfinedRoot): Promise<boolean> {
    if (!procFdAvailable()) return true;
    let where: string;
    try {
      where = await fs.readlink(this.self);
    } catch {
      return descendsFrom(this.handle, root);
    }
    return isInsideRoot(root.path, where.replace(/ \(deleted\)$/, ''));
  }

  /**
   * Starts closing the handle and resolves at once (the caller never uses it again, so waiting for
   * the thread pool would only add a round trip per walked component); never rejects.
   */
  close(): Promise<void> {
    this.handle.close().catch(() => undefined);
    return Promise.resolve();
  }
}

/**
 * True when the root's recorded directory is `directory` or one of its ancestors, found by opening
 * `..` through `/proc/self/fd` one step at a time (`..` is never a link). False on any error.
 */
async function descendsFrom(directory: fs.FileHandle, root: ConfinedRoot): Promise<boolean> {
  let current: fs.FileHandle | undefined;
  try {
    let stats = await directory.stat({ bigint: true });
    for (let step = 0; step < MAX_ANCESTRY_STEPS; step += 1) {
      if (isRootDirectory(stats, root)) return true;
      const parent = await fs.open(`/proc/self/fd/${(current ?? directory).fd}/..`, DIRECTORY_OPEN_FLAGS);
      await current?.close();
      current = parent;
      const parentStats = await parent.stat({ bigint: true });
      // The filesystem's root is its own parent: the walk went past it without meeting the root.
      if (parentStats.dev === stats.dev && parentStats.ino === stats.ino) return false;
      stats = parentStats;
    }
    return false;
  } catch {
    return false;
  } finally {
    await current?.close().catch(() => undefined);
  }
}
