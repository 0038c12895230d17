import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync } from 'node:fs';

/** A 250-byte name: ten of them, with their slashes, make a 2,510-byte path. */
export const LONG_NAME = 'n'.repeat(250);

/** Directories per chain: two chains end to end are longer than `PATH_MAX` (4096), one is not. */
const CHAIN_LEVELS = 10;

/**
 * Makes `levels` nested directories named {@link LONG_NAME} below `start`, each made and opened
 * through the handle of the previous one (so the absolute path may exceed `PATH_MAX`), and runs
 * `fill` with a `/proc/self/fd/N` path naming the deepest one. Returns the path of the deepest one
 * relative to `start`.
 */
export function makeChain(start: string, levels: number, fill: (deepest: string) => void = () => undefined): string {
  let fd = openSync(start, 'r');
  try {
    for (let level = 0; level < levels; level += 1) {
      mkdirSync(`/proc/self/fd/${fd}/${LONG_NAME}`);
      const next = openSync(`/proc/self/fd/${fd}/${LONG_NAME}`, 'r');
      closeSync(fd);
      fd = next;
    }
    fill(`/proc/self/fd/${fd}`);
  } finally {
    closeSync(fd);
  }
  return Array.from({ length: levels }, () => LONG_NAME).join('/');
}

/**
 * Makes below `start` (a directory named `name`) a directory whose absolute path is longer than
 * `PATH_MAX`, reached by a link target shorter than it: `name/<chain>/hop`, where `hop` is a link to
 * a second chain. `fill` gets a `/proc/self/fd/N` path naming the deep directory. Returns the
 * target, relative to `start`: `readlink` of `/proc/self/fd/N` fails with `ENAMETOOLONG` for a
 * handle of the deep directory.
 */
export function makeDeepDirectory(
  start: string,
  name: string,
  fill: (deepest: string) => void = () => undefined,
): string {
  mkdirSync(`${start}/${name}`);
  const first = makeChain(`${start}/${name}`, CHAIN_LEVELS, (end) => {
    const second = makeChain(end, CHAIN_LEVELS, fill);
    symlinkSync(second, `${end}/hop`);
  });
  return `${name}/${first}/hop`;
}

/** Removes a tree of any depth (`rm -rf` walks by handle; Node's `fs.rm` stops at `ENAMETOOLONG`). */
export function removeTree(directory: string): void {
  execFileSync('rm', ['-rf', directory]);
}
