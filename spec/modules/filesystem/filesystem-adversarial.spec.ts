import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { compileNameMatcher } from '../../../lib/modules/filesystem/glob-matcher';
import { Sandbox, dataOf, expectFailure, makeSandbox } from './sandbox';

/** Names of `directory`, sorted. */
const namesIn = async (directory: string): Promise<string[]> => (await fs.readdir(directory)).sort();

describe('FilesystemToolkit under adversarial arguments', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root, maxWriteBytes: 8 });
  });
  afterEach(() => box.cleanup());

  describe('move', () => {
    it('replaces a destination that is a symlink to outside, never what it points to', async () => {
      await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
      await fs.symlink(path.join(box.outside, 'secret.txt'), path.join(box.root, 'out-link'));
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_move', { from: 'a.txt', to: 'out-link' }),
        'already_exists',
        'conflict',
        'allowed',
      );
      expect(dataOf(await toolkit.invoke('fs_move', { from: 'a.txt', to: 'out-link', overwrite: true }))).toMatchObject(
        { replaced: true },
      );
      expect((await fs.lstat(path.join(box.root, 'out-link'))).isFile()).toBe(true);
      await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
    });

    it('refuses a destination or a source inside a directory that is a symlink to outside', async () => {
      await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
      await fs.symlink(box.outside, path.join(box.root, 'out-dir'));
      expectFailure(toolkit, await toolkit.invoke('fs_move', { from: 'a.txt', to: 'out-dir/a.txt' }), 'symlink_escape');
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_move', { from: 'out-dir/secret.txt', to: 'stolen.txt' }),
        'symlink_escape',
      );
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
      await expect(namesIn(box.root)).resolves.toEqual(['a.txt', 'out-dir']);
    });

    it('moves a symlinked directory as a link, so its target is not moved', async () => {
      await fs.symlink(box.outside, path.join(box.root, 'out-dir'));
      expect(dataOf(await toolkit.invoke('fs_move', { from: 'out-dir', to: 'renamed' }))).toMatchObject({
        replaced: false,
      });
      expect((await fs.lstat(path.join(box.root, 'renamed'))).isSymbolicLink()).toBe(true);
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
    });

    it('refuses the root itself as source or destination, in every spelling', async () => {
      await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
      for (const spelling of ['.', '', './', './/./']) {
        expectFailure(toolkit, await toolkit.invoke('fs_move', { from: spelling, to: 'x' }), 'operation_not_allowed');
        expectFailure(
          toolkit,
          await toolkit.invoke('fs_move', { from: 'a.txt', to: spelling, overwrite: true }),
          'operation_not_allowed',
        );
      }
      await expect(namesIn(box.root)).resolves.toEqual(['a.txt']);
    });
  });

  describe('delete', () => {
    it('refuses the root in every spelling, recursive or not', async () => {
      await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
      for (const spelling of ['.', '', './', '././', '//'])
        for (const recursive of [false, true]) {
          const outcome = await toolkit.invoke('fs_delete', { path: spelling, recursive });
          expectFailure(toolkit, outcome, spelling === '//' ? 'path_outside_root' : 'operation_not_allowed');
        }
      await expect(namesIn(box.root)).resolves.toEqual(['a.txt']);
    });

    it('deletes a tree holding links to outside without touching what they point to', async () => {
      await fs.mkdir(path.join(box.root, 'tree', 'deep'), { recursive: true });
      await fs.symlink(box.outside, path.join(box.root, 'tree', 'out-dir'));
      await fs.symlink(path.join(box.outside, 'secret.txt'), path.join(box.root, 'tree', 'deep', 'out-file'));
      expect(dataOf(await toolkit.invoke('fs_delete', { path: 'tree', recursive: true }))).toMatchObject({
        deleted: true,
      });
      await expect(namesIn(box.root)).resolves.toEqual([]);
      await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
    });
  });

  describe('mkdir', () => {
    it('refuses recursive creation through a dangling symlink or a link to outside, creating nothing', async () => {
      await fs.symlink(path.join(box.outside, 'not-yet'), path.join(box.root, 'dangling'));
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_mkdir', { path: 'dangling/x', recursive: true }),
        'symlink_escape',
      );
      expectFailure(toolkit, await toolkit.invoke('fs_mkdir', { path: 'dangling' }), 'symlink_escape');
      await fs.symlink(box.evil, path.join(box.root, 'evil-dir'));
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_mkdir', { path: 'evil-dir/x', recursive: true }),
        'symlink_escape',
      );
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
      await expect(namesIn(box.evil)).resolves.toEqual(['secret.txt']);
    });
  });

  describe('search', () => {
    it('never descends into a symlinked directory outside, nor loops through a -> b -> a', async () => {
      await fs.writeFile(path.join(box.outside, 'needle-outside.txt'), 'x');
      await fs.symlink(box.outside, path.join(box.root, 'out-dir'));
      await fs.mkdir(path.join(box.root, 'a'));
      await fs.mkdir(path.join(box.root, 'b'));
      await fs.symlink('../b', path.join(box.root, 'a', 'to-b'));
      await fs.symlink('../a', path.join(box.root, 'b', 'to-a'));
      await fs.symlink('loop2', path.join(box.root, 'loop1'));
      await fs.symlink('loop1', path.join(box.root, 'loop2'));
      await fs.writeFile(path.join(box.root, 'b', 'needle.txt'), 'n');
      const found = dataOf(await toolkit.invoke('fs_search', { pattern: 'needle' }));
      expect(found.results).toEqual([{ path: 'b/needle.txt', type: 'file' }]);
      expect(found.truncated).toBe(false);
      const links = dataOf(await toolkit.invoke('fs_search', { pattern: 'to-', mode: 'glob' }));
      expect(links.results).toEqual([]);
      expectFailure(toolkit, await toolkit.invoke('fs_search', { pattern: 'x', path: 'loop1' }), 'symlink_escape');
    });

    it('stops a very deep tree at the visited-entries bound', async () => {
      const bounded = new FilesystemToolkit({ root: box.root, maxSearchVisitedEntries: 50 });
      await fs.mkdir(path.join(box.root, ...Array.from({ length: 120 }, () => 'd')), { recursive: true });
      const found = dataOf(await bounded.invoke('fs_search', { pattern: 'nothing-matches' }));
      expect(found).toMatchObject({ results: [], truncated: true, visited: 50 });
    });

    it('matches a hostile glob against a long name in bounded time (no catastrophic backtracking)', async () => {
      const name = 'a'.repeat(250);
      await fs.writeFile(path.join(box.root, name), '');
      const pattern = `${'*a'.repeat(30)}*b`;
      const started = Date.now();
      const found = dataOf(await toolkit.invoke('fs_search', { pattern, mode: 'glob' }));
      expect(found.results).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(
        dataOf(await toolkit.invoke('fs_search', { pattern: `${'*a'.repeat(30)}*`, mode: 'glob' })).results,
      ).toEqual([{ path: name, type: 'file' }]);
    });
  });

  describe('list', () => {
    it('reports a link to outside as a link, with no size or other metadata of its target', async () => {
      await fs.writeFile(path.join(box.outside, 'big.bin'), Buffer.alloc(12345));
      await fs.symlink(path.join(box.outside, 'big.bin'), path.join(box.root, 'out-file'));
      await fs.symlink(box.outside, path.join(box.root, 'out-dir'));
      const listed = dataOf(await toolkit.invoke('fs_list', { path: '.' }));
      expect(listed.entries).toEqual([
        { name: 'out-dir', type: 'symlink' },
        { name: 'out-file', type: 'symlink' },
      ]);
      expect(JSON.stringify(listed)).not.toContain('12345');
      expect(JSON.stringify(listed)).not.toContain(box.outside);
    });
  });

  describe('read ranges', () => {
    beforeEach(() => fs.writeFile(path.join(box.root, 'f.txt'), '0123456789'));

    it('refuses negative, fractional, non-numeric and zero ranges as invalid_arguments', async () => {
      for (const range of [
        { offset: -1 },
        { offset: 1.5 },
        { offset: '3' },
        { length: 0 },
        { length: -5 },
        { length: 2.5 },
        { offset: Number.MAX_SAFE_INTEGER + 2 },
      ])
        expectFailure(
          toolkit,
          await toolkit.invoke('fs_read', { path: 'f.txt', ...range } as never),
          'invalid_arguments',
          'invalid_arguments',
        );
    });

    it('answers an offset far beyond the end with no bytes, and a huge length with the file', async () => {
      expect(dataOf(await toolkit.invoke('fs_read', { path: 'f.txt', offset: Number.MAX_SAFE_INTEGER }))).toMatchObject(
        { bytesRead: 0, eof: true, content: '' },
      );
      expect(
        dataOf(await toolkit.invoke('fs_read', { path: 'f.txt', offset: 4, length: Number.MAX_SAFE_INTEGER })),
      ).toMatchObject({ bytesRead: 6, eof: true, content: '456789' });
    });
  });

  describe('write limits', () => {
    it('accepts exactly maxWriteBytes and refuses one byte more, in utf8 and base64', async () => {
      expect(dataOf(await toolkit.invoke('fs_write', { path: 'w.txt', content: '12345678' }))).toMatchObject({
        bytesWritten: 8,
      });
      expectFailure(toolkit, await toolkit.invoke('fs_write', { path: 'w.txt', content: '123456789' }), 'too_large');
      expectFailure(toolkit, await toolkit.invoke('fs_append', { path: 'w.txt', content: 'é'.repeat(5) }), 'too_large');
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_write', {
          path: 'w.txt',
          content: Buffer.alloc(9).toString('base64'),
          encoding: 'base64',
        }),
        'too_large',
      );
      await expect(fs.readFile(path.join(box.root, 'w.txt'), 'utf8')).resolves.toBe('12345678');
    });
  });

  describe('append to special files', () => {
    it('refuses a FIFO without blocking and a file that gained a hard link to outside', async () => {
      execFileSync('mkfifo', [path.join(box.root, 'pipe')]);
      expectFailure(toolkit, await toolkit.invoke('fs_append', { path: 'pipe', content: 'x' }), 'not_a_regular_file');
      await fs.writeFile(path.join(box.root, 'log.txt'), 'one');
      expect(dataOf(await toolkit.invoke('fs_append', { path: 'log.txt', content: '+' }))).toMatchObject({
        bytesWritten: 1,
      });
      await fs.link(path.join(box.root, 'log.txt'), path.join(box.outside, 'log-twin.txt'));
      expectFailure(toolkit, await toolkit.invoke('fs_append', { path: 'log.txt', content: '+' }), 'hard_link');
      await expect(fs.readFile(path.join(box.outside, 'log-twin.txt'), 'utf8')).resolves.toBe('one+');
    });
  });

  describe('device files and FIFOs in the root', () => {
    it('never opens a character device for reading or writing, and lists it as a device', async () => {
      try {
        execFileSync('mknod', [path.join(box.root, 'zero'), 'c', '1', '5'], { stdio: 'ignore' });
      } catch {
        return; // Creating device nodes needs privileges this environment does not have.
      }
      expectFailure(toolkit, await toolkit.invoke('fs_read', { path: 'zero' }), 'not_a_regular_file');
      expectFailure(toolkit, await toolkit.invoke('fs_write', { path: 'zero', content: 'x' }), 'not_a_regular_file');
      expectFailure(toolkit, await toolkit.invoke('fs_append', { path: 'zero', content: 'x' }), 'not_a_regular_file');
      expect(dataOf(await toolkit.invoke('fs_list', {})).entries).toEqual([{ name: 'zero', type: 'device' }]);
    });

    it('answers list and search on a FIFO at once with not_a_directory', async () => {
      execFileSync('mkfifo', [path.join(box.root, 'pipe')]);
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_list', { path: 'pipe' }),
        'not_a_directory',
        'precondition_failed',
        'allowed',
      );
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_search', { path: 'pipe', pattern: 'x' }),
        'not_a_directory',
        'precondition_failed',
        'allowed',
      );
      expect(dataOf(await toolkit.invoke('fs_stat', { path: 'pipe' }))).toMatchObject({ type: 'fifo', size: 0 });
    });
  });

  describe('names', () => {
    it('treats ~, newlines and look-alike dots as plain names inside the root', async () => {
      const names = ['~', 'line\nbreak', '\uFF0E\uFF0E', '.\u0301.', '..\u200B'];
      for (const name of names)
        expect(dataOf(await toolkit.invoke('fs_write', { path: name, content: 'n' }))).toMatchObject({ created: true });
      await expect(namesIn(box.root)).resolves.toEqual([...names].sort());
      await expect(namesIn(box.base)).resolves.toEqual(['outside', 'root', 'root-evil']);
    });

    it('refuses .. however it is combined', async () => {
      for (const spelling of ['a/../../b', 'a/..', '../', './..', 'a//..//b', '..'])
        expectFailure(toolkit, await toolkit.invoke('fs_write', { path: spelling, content: 'x' }), 'path_outside_root');
      await expect(namesIn(box.base)).resolves.toEqual(['outside', 'root', 'root-evil']);
    });
  });
});

describe('FilesystemToolkit when a directory is swapped for a link during a call', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root });
    await fs.mkdir(path.join(box.root, 'dir'));
    await fs.writeFile(path.join(box.root, 'dir', 'inside.txt'), 'in');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await box.cleanup();
  });

  /** Replaces `root/dir` with a link to outside right after the first call of `fs.promises[method]` returns. */
  const swapAfterFirst = (method: 'readdir' | 'open'): void => {
    const original = fs[method].bind(fs) as (...args: unknown[]) => Promise<unknown>;
    let swapped = false;
    jest.spyOn(fs, method).mockImplementation((async (...args: unknown[]) => {
      const result = await original(...args);
      if (!swapped) {
        swapped = true;
        await fs.rename(path.join(box.root, 'dir'), path.join(box.root, 'moved'));
        await fs.symlink(box.outside, path.join(box.root, 'dir'));
      }
      return result;
    }) as never);
  };

  it('search does not descend into a directory that became a link to outside after it was queued', async () => {
    swapAfterFirst('readdir');
    const found = dataOf(await toolkit.invoke('fs_search', { pattern: 'secret' }));
    expect(found.results).toEqual([]);
  });

  /**
   * Swaps `root/dir` for a link to outside the first time `fs.promises.lstat` is asked about an entry `<name>` (by any
   * path).
   */
  const swapOnLstatOf = (name: string): void => {
    const original = fs.lstat.bind(fs);
    let swapped = false;
    jest.spyOn(fs, 'lstat').mockImplementation((async (target: string) => {
      if (!swapped && String(target).endsWith(`/${name}`)) {
        swapped = true;
        await fs.rename(path.join(box.root, 'dir'), path.join(box.root, 'moved'));
        await fs.symlink(box.outside, path.join(box.root, 'dir'));
      }
      return original(target);
    }) as never);
  };

  it.each([
    ['fs_mkdir', { path: 'dir/fresh' }],
    ['fs_write', { path: 'dir/fresh', content: 'x' }],
    ['fs_append', { path: 'dir/fresh', content: 'x' }],
  ])(
    '%s does not create (even briefly) an entry outside when the parent becomes a link after the check',
    async (tool, args) => {
      await fs.utimes(box.outside, new Date(1_000_000_000_000), new Date(1_000_000_000_000));
      swapOnLstatOf('fresh');
      // The entry is made through the handle of the directory that was checked, now at root/moved.
      expect(dataOf(await toolkit.invoke(tool, args))).toMatchObject({ created: true });
      jest.restoreAllMocks();
      await expect(namesIn(path.join(box.root, 'moved'))).resolves.toEqual(['fresh', 'inside.txt']);
      expect((await fs.stat(box.outside)).mtimeMs).toBe(1_000_000_000_000);
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
    },
  );

  it('stat does not report metadata of a file outside when the parent became a link after resolution', async () => {
    await fs.writeFile(path.join(box.outside, 'inside.txt'), 'outside metadata, 33 bytes long..');
    swapAfterFirst('open');
    const outcome = await toolkit.invoke('fs_stat', { path: 'dir/inside.txt' });
    expectFailure(toolkit, outcome, 'symlink_escape');
    expect(JSON.stringify(outcome)).not.toContain('"size":33');
  });

  it('list does not report the size of a file outside when the directory became a link after it was read', async () => {
    await fs.writeFile(path.join(box.outside, 'inside.txt'), 'outside metadata, 33 bytes long..');
    swapAfterFirst('readdir');
    const listed = dataOf(await toolkit.invoke('fs_list', { path: 'dir' }));
    expect(listed.entries).toEqual([{ name: 'inside.txt', type: 'file', size: 2 }]);
  });

  it('list does not read a directory that became a link to outside after it was resolved', async () => {
    swapAfterFirst('open');
    const outcome = await toolkit.invoke('fs_list', { path: 'dir' });
    expectFailure(toolkit, outcome, 'symlink_escape');
    expect(JSON.stringify(outcome)).not.toContain('secret.txt');
  });
});

describe('FilesystemToolkit when a parent is swapped for a link while approval is pending', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
    await fs.mkdir(path.join(box.root, 'dir'));
    await fs.writeFile(path.join(box.root, 'dir', 'secret.txt'), 'inside copy');
    await fs.writeFile(path.join(box.root, 'a.txt'), 'planted');
  });
  afterEach(() => box.cleanup());

  /** An approval hook that, while "the human decides", swaps `root/dir` for a link to outside, then approves. */
  const swappingApproval = () => async () => {
    await fs.rename(path.join(box.root, 'dir'), path.join(box.root, 'moved'));
    await fs.symlink(box.outside, path.join(box.root, 'dir'));
    return true;
  };

  it('delete refuses instead of deleting the file of the same name outside', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root, approve: swappingApproval() });
    expectFailure(toolkit, await toolkit.invoke('fs_delete', { path: 'dir/secret.txt' }), 'symlink_escape');
    await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
  });

  it('an overwriting move refuses instead of writing outside', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root, approve: swappingApproval() });
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_move', { from: 'a.txt', to: 'dir/secret.txt', overwrite: true }),
      'symlink_escape',
    );
    await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
    await expect(fs.readFile(path.join(box.root, 'a.txt'), 'utf8')).resolves.toBe('planted');
  });
});

describe('compileNameMatcher glob', () => {
  const glob = (pattern: string) => compileNameMatcher(pattern, 'glob');

  it('matches * and ? over whole code points and everything else literally', () => {
    expect(glob('report*.md')('report-2024.md')).toBe(true);
    expect(glob('report*.md')('report.mdx')).toBe(false);
    expect(glob('?.txt')('é.txt')).toBe(true);
    expect(glob('?.txt')('😀.txt')).toBe(true);
    expect(glob('?.txt')('ab.txt')).toBe(false);
    expect(glob('a.c')('abc')).toBe(false);
    expect(glob('[ab]*')('[ab]x')).toBe(true);
    expect(glob('*')('line\nbreak')).toBe(true);
    expect(glob('**a**')('bab')).toBe(true);
    expect(glob('*a*b')('aXb')).toBe(true);
    expect(glob('*a*b')('aXbc')).toBe(false);
  });

  it('runs in time polynomial in the lengths, even for many stars against a near miss', () => {
    const started = Date.now();
    expect(glob(`${'*a'.repeat(120)}*b`)('a'.repeat(255))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
