import { ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';

/** A second process that keeps replacing a directory with links, until stopped. */
export interface DirectoryFlipper {
  /** Stops the loop and leaves the real directory at its path again. */
  stop(): Promise<void>;
}

const CYCLE_LOOP = `
const fs = require('node:fs');
const [restArgument, directory, parked, ...targets] = process.argv.slice(1);
const restMs = Number(restArgument);
const clock = new Int32Array(new SharedArrayBuffer(4));
const rest = () => restMs > 0 && Atomics.wait(clock, 0, 0, Math.random() * restMs);
const links = targets.map((target, index) => {
  const link = directory + '.link' + index;
  fs.symlinkSync(target, link);
  return link;
});
process.stdout.write('ready\\n');
for (;;) {
  try { fs.renameSync(directory, parked); } catch {}
  for (const link of links) {
    try { fs.renameSync(link, directory); } catch {}
    rest();
  }
  for (const [index, link] of links.slice(0, -1).entries()) try { fs.symlinkSync(targets[index], link); } catch {}
  try { fs.renameSync(directory, links[links.length - 1]); } catch {}
  try { fs.renameSync(parked, directory); } catch {}
  rest();
}
`;

/**
 * Starts a second process that cycles the real directory `directory` through a symbolic link to
 * each of `targets` in turn, in a tight loop: the directory is renamed away, each link is renamed
 * over the path in turn (so the path is missing only between the directory and the first link and
 * back), then the directory is renamed back; each state stays for a random time up to `restMs`.
 * Waits until its loop runs.
 */
export async function cycleDirectory(
  directory: string,
  targets: readonly string[],
  restMs = 0,
): Promise<DirectoryFlipper> {
  const parked = `${directory}.parked`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', CYCLE_LOOP, String(restMs), directory, parked, ...targets],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the cycling process exited (${String(code)})`)));
    child.stdout?.once('data', () => resolve());
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const stats = await fs.lstat(directory).catch(() => undefined);
      if (stats?.isSymbolicLink()) await fs.unlink(directory);
      if (stats === undefined || stats.isSymbolicLink()) await fs.rename(parked, directory);
    },
  };
}

/** A {@link cycleDirectory} between the real directory and a link to `outside`. */
export function flipDirectory(directory: string, outside: string): Promise<DirectoryFlipper> {
  return cycleDirectory(directory, [outside]);
}
