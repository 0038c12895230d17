import { promises as fs, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { observeRoot } from '../../../lib/modules/filesystem/confined-root';
import { DirectoryHandle } from '../../../lib/modules/filesystem/directory-handle';
import { openConfinedFile } from '../../../lib/modules/filesystem/safe-open';
import { makeDeepDirectory, removeTree } from './deep-tree';
import { Sandbox, dataOf, makeSandbox } from './sandbox';

/**
 * Paths longer than `PATH_MAX`: `readlink` of `/proc/self/fd/N` fails (`ENAMETOOLONG`) and must not count as inside.
 */
describe('Checks by handle when /proc cannot name a directory longer than PATH_MAX', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
  });
  afterEach(() => removeTree(box.base));

  it('refuses opening a file whose parent became a link to a deep directory outside (a failed readlink is not inside)', async () => {
    const target = makeDeepDirectory(box.outside, 'deep', (deepest) => {
      mkdirSync(`${deepest}/d`);
      writeFileSync(`${deepest}/d/secret.txt`, 'deep outside secret');
    });
    // `root/p/d/secret.txt` was checked while `p` was a directory; now `p` is a link to the deep tree outside.
    await fs.symlink(path.join(box.outside, target), path.join(box.root, 'p'));
    const opening = openConfinedFile(
      box.root,
      path.join(box.root, 'p', 'd', 'secret.txt'),
      'p/d/secret.txt',
      'read',
    ).then(async (handle) => {
      try {
        return await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    });
    await expect(opening).rejects.toMatchObject({ code: 'symlink_escape' });
    const handle = await DirectoryHandle.openChecked(await observeRoot(box.root), path.join(box.root, 'p', 'd'));
    try {
      await expect(handle.stillInside(await observeRoot(box.root))).resolves.toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('still reads, writes, lists and creates in a deep directory inside the root, checked by walking up to the root', async () => {
    const target = makeDeepDirectory(box.root, 'deep', (deepest) =>
      writeFileSync(`${deepest}/secret.txt`, 'deep inside'),
    );
    await fs.symlink(target, path.join(box.root, 'p'));
    const toolkit = new FilesystemToolkit({ root: box.root });
    expect(dataOf(await toolkit.invoke('fs_read', { path: 'p/secret.txt' })).content).toBe('deep inside');
    expect(dataOf(await toolkit.invoke('fs_write', { path: 'p/new.txt', content: 'written' })).created).toBe(true);
    expect(dataOf(await toolkit.invoke('fs_mkdir', { path: 'p/made/below', recursive: true })).created).toBe(true);
    const names = (dataOf(await toolkit.invoke('fs_list', { path: 'p' })).entries as { name: string }[])
      .map((entry) => entry.name)
      .sort();
    expect(names).toEqual(['made', 'new.txt', 'secret.txt']);
    expect(dataOf(await toolkit.invoke('fs_read', { path: 'p/new.txt' })).content).toBe('written');
    expect(readFileSync(path.join(box.outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });
});
