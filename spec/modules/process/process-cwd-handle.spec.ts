import { spawnSync } from 'node:child_process';
import { promises as fs, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ProcessToolkit } from '../../../lib/modules/process';
import { withConfinedDirectory } from '../../../lib/modules/filesystem/confined-directory';
import { observeRoot } from '../../../lib/modules/filesystem/confined-root';
import { makeDeepDirectory, removeTree } from '../filesystem/deep-tree';
import { DirectoryFlipper, cycleDirectory } from '../filesystem/racer';
import { EXECUTABLES, ProcessSandbox, makeProcessSandbox } from './process-sandbox';

/** How long the race runs: long enough for hundreds of calls, short enough for CI. */
const RACE_MS = 4000;

describe('ProcessToolkit: the child starts in the checked directory handle, never a host path resolved again', () => {
  let box: ProcessSandbox;
  let deepTarget: string;
  let flipper: DirectoryFlipper | undefined;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    // work/p/d (real, short), work/deep... /d (inside, longer than PATH_MAX), outside/d (outside).
    await fs.mkdir(path.join(box.root, 'p', 'd'), { recursive: true });
    await fs.writeFile(path.join(box.root, 'p', 'd', 'secret.txt'), 'inside');
    deepTarget = makeDeepDirectory(box.root, 'deep', (deepest) => {
      mkdirSync(`${deepest}/d`);
      writeFileSync(`${deepest}/d/secret.txt`, 'deep inside');
    });
    await fs.mkdir(path.join(box.outside, 'd'));
    await fs.writeFile(path.join(box.outside, 'd', 'secret.txt'), 'outside secret');
  });
  afterEach(async () => {
    await flipper?.stop();
    flipper = undefined;
    removeTree(box.base);
  });

  it('hands the action the handle, not the host path, when /proc cannot name the opened directory (ENAMETOOLONG)', async () => {
    const link = path.join(box.root, 'p');
    await fs.rename(link, path.join(box.root, 'p.real'));
    await fs.symlink(deepTarget, link);
    const seen = await withConfinedDirectory(
      await observeRoot(box.root),
      path.join(link, 'd'),
      'p/d',
      async (directory) => {
        // The link is swapped to outside after the check: a host path resolved again would now lead there.
        await fs.unlink(link);
        await fs.symlink(path.join(box.outside), link);
        return spawnSync('/bin/cat', ['secret.txt'], { cwd: directory, encoding: 'utf8' }).stdout;
      },
    ).catch((error: { code?: string }) => `refused: ${String(error.code)}`);
    expect(seen).not.toBe('outside secret');
    expect(['deep inside', 'refused: symlink_escape']).toContain(seen);
  });

  it(
    'never starts a child outside the root while a second process swaps a parent of the cwd between a directory, a deep link inside and a link outside',
    async () => {
      const toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES });
      flipper = await cycleDirectory(path.join(box.root, 'p'), [deepTarget, box.outside], 0.3);
      const seen = new Map<string, number>();
      let calls = 0;
      for (const until = Date.now() + RACE_MS; Date.now() < until; calls += 1) {
        const command = calls % 2 === 0 ? 'cat secret.txt' : 'pwd';
        const outcome = await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', command], cwd: 'p/d' });
        const key = outcome.ok
          ? String((outcome.data as { stdout: string }).stdout).trim()
          : `refused ${String((outcome.error?.details as { reason?: string }).reason)}`;
        const label = key.startsWith(box.root) ? 'inside cwd' : key;
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
      await flipper.stop();
      flipper = undefined;
      if (process.env.WUWE_RACE_DEBUG) console.log(calls, seen);
      const escapes = [...seen.keys()].filter((key) => key === 'outside secret' || key.startsWith(box.outside));
      expect({ calls, escapes }).toEqual({ calls, escapes: [] });
      expect(calls).toBeGreaterThan(50);
    },
    RACE_MS + 20_000,
  );
});
