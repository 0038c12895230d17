import { closeSync, constants, existsSync, openSync, readlinkSync } from 'node:fs';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Flags every directory handle is opened with: a last component that is a link fails (`ENOTDIR`/`ELOOP`). */
export const DIRECTORY_OPEN_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

let procFd: boolean | undefined;

/**
 * True when `/proc/self/fd/N/name` resolves `name` inside the very directory open as `N` (Linux):
 * the `*at` system calls Node.js lacks. Checked synchronously on first use and remembered; a probe
 * that fails for another reason than a missing `/proc` (no file descriptor left, say) is not
 * remembered, and answers by whether `/proc/self/fd` exists, so a passing failure never turns the
 * handle paths off for good.
 */
export function procFdAvailable(): boolean {
  if (procFd !== undefined) return procFd;
  let fd: number;
  try {
    fd = openSync('/', DIRECTORY_OPEN_FLAGS);
  } catch {
    return existsSync('/proc/self/fd');
  }
  try {
    procFd = readlinkSync(`/proc/self/fd/${fd}`) === '/';
  } catch {
    procFd = !existsSync('/proc/self/fd') ? false : undefined;
  } finally {
    closeSync(fd);
  }
  return procFd ?? true;
}
