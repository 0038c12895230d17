import { closeSync, constants, openSync, promises as fs, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { isInsideRoot } from './path-rules';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Flags every directory handle is opened with: a last component that is a link fails (`ENOTDIR`/`ELOOP`). */
export const DIRECTORY_OPEN_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

let procFd: boolean | undefined;

/**
 * True when `/proc/self/fd/N/name` resolves `name` inside the very directory open as `N` (Linux):
 * the `*at` system calls Node.js lacks. Checked once, synchronously, on first use.
 */
export function procFdAvailable(): boolean {
  if (procFd !== undefined) return procFd;
  try {
    const fd = openSync('/', DIRECTORY_OPEN_FLAGS);
    try {
      procFd = readlinkSync(`/proc/self/fd/${fd}`) === '/';
    } finally {
      closeSync(fd);
    }
  } catch {
    procFd = false;
  }
  return procFd;
}

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

  /** Opens the root (a real path, see `resolveFilesystemRoot`). Rejects with the system error. */
  static async openRoot(root: string): Promise<DirectoryHandle> {
    return new DirectoryHandle(await fs.open(root, DIRECTORY_OPEN_FLAGS), [], root);
  }

  /**
   * Opens an absolute path already checked inside `root` as a directory handle (the last component
   * not followed), for callers that hold a path, not components. Rejects with the system error.
   */
  static async openChecked(root: string, absolute: string): Promise<DirectoryHandle> {
    const components = path.relative(root, absolute).split(path.sep).filter((component) => component !== '');
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

  /** Opens the entry `name` of this directory as a directory handle, not following a link. Rejects with the system error. */
  async openChild(name: string): Promise<DirectoryHandle> {
    return new DirectoryHandle(await fs.open(this.at(name), DIRECTORY_OPEN_FLAGS), [...this.components, name], path.join(this.absolute, name));
  }

  /**
   * True unless `/proc` shows the directory now lies outside `root` (another process moved it out
   * after it was opened). Without `/proc` it cannot tell and answers true.
   */
  async stillInside(root: string): Promise<boolean> {
    if (!procFdAvailable()) return true;
    const where = await fs.readlink(this.self).catch(() => undefined);
    return where === undefined || isInsideRoot(root, where.replace(/ \(deleted\)$/, ''));
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
