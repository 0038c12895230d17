import { ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';

/**
 * A second process that flips `directory` between the real directory and a symbolic link to
 * `outside` in a tight loop (rename away, link, unlink, rename back), until stopped.
 */
export interface DirectoryFlipper {
  /** Stops the loop and leaves `directory` as the real directory again. */
  stop(): Promise<void>;
}

const FLIP_LOOP = `
const fs = require('node:fs');
const [directory, parked, outside] = process.argv.slice(1);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.renameSync(directory, parked); } catch {}
  try { fs.symlinkSync(outside, directory); } catch {}
  try { fs.unlinkSync(directory); } catch {}
  try { fs.renameSync(parked, directory); } catch {}
}
`;

/** Starts a {@link DirectoryFlipper} and waits until its loop runs. */
export async function flipDirectory(directory: string, outside: string): Promise<DirectoryFlipper> {
  const parked = `${directory}.parked`;
  const child: ChildProcess = spawn(process.execPath, ['-e', FLIP_LOOP, directory, parked, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
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
