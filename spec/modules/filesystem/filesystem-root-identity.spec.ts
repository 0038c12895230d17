import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { JsonObject } from '../../../lib/outcome/json-value';
import { ProcessToolkit } from '../../../lib/modules/process';
import { DirectoryFlipper, flipDirectory } from './racer';
import { expectFailure } from './sandbox';

/** How long each race runs: long enough for hundreds of calls, short enough for CI. */
const RACE_MS = 4000;

/** `base/parent/root` (the toolkit's root) and `base/other/root` (a look-alike in another tree). */
interface Layout {
  readonly base: string;
  readonly parent: string;
  readonly root: string;
  readonly otherRoot: string;
}

async function makeLayout(): Promise<Layout> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wuwe-root-')));
  const parent = path.join(base, 'parent');
  await fs.mkdir(path.join(parent, 'root', 'sub'), { recursive: true });
  await fs.writeFile(path.join(parent, 'root', 'file.txt'), 'inside');
  await fs.mkdir(path.join(base, 'other', 'root', 'sub'), { recursive: true });
  await fs.writeFile(path.join(base, 'other', 'root', 'file.txt'), 'other tree');
  return { base, parent, root: path.join(parent, 'root'), otherRoot: path.join(base, 'other', 'root') };
}

/** Every path below `directory`, sorted. */
async function treeOf(directory: string): Promise<string[]> {
  return (await fs.readdir(directory, { recursive: true })).sort();
}

describe('FilesystemToolkit and ProcessToolkit: the root is the directory recorded at construction', () => {
  let layout: Layout;
  let flipper: DirectoryFlipper | undefined;
  beforeEach(async () => {
    layout = await makeLayout();
  });
  afterEach(async () => {
    await flipper?.stop();
    flipper = undefined;
    await fs.rm(layout.base, { recursive: true, force: true });
  });

  /** Replaces `base/parent` with a link to `base/other`: the root's path now names the look-alike. */
  async function swapParent(): Promise<void> {
    await fs.rename(layout.parent, `${layout.parent}.real`);
    await fs.symlink(path.join(layout.base, 'other'), layout.parent);
  }

  it('refuses every filesystem call with root_replaced once a parent of the root is a link to another tree, touching nothing there', async () => {
    const toolkit = new FilesystemToolkit({ root: layout.root, approve: () => true });
    await swapParent();
    const before = await treeOf(layout.otherRoot);
    const calls: [string, JsonObject][] = [
      ['fs_mkdir', { path: 'a/b/c', recursive: true }],
      ['fs_mkdir', { path: 'made' }],
      ['fs_write', { path: 'new.txt', content: 'x' }],
      ['fs_write', { path: 'file.txt', content: 'overwritten' }],
      ['fs_read', { path: 'file.txt' }],
      ['fs_list', { path: '.' }],
      ['fs_stat', { path: 'sub' }],
      ['fs_search', { pattern: '*' }],
      ['fs_move', { from: 'file.txt', to: 'moved.txt' }],
      ['fs_delete', { path: 'sub', recursive: true }],
    ];
    for (const [tool, args] of calls) {
      const outcome = await toolkit.invoke(tool, args);
      expect(JSON.stringify(outcome)).not.toContain('other tree');
      expectFailure(toolkit, outcome, 'root_replaced');
    }
    await expect(treeOf(layout.otherRoot)).resolves.toEqual(before);
    await expect(fs.readFile(path.join(layout.otherRoot, 'file.txt'), 'utf8')).resolves.toBe('other tree');
  });

  it('refuses a process run with root_replaced, starting nothing, once a parent of the root is a link to another tree', async () => {
    const toolkit = new ProcessToolkit({ root: layout.root, executables: { pwd: '/bin/pwd' } });
    await swapParent();
    const outcome = await toolkit.invoke('process_run', { executable: 'pwd' });
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.details).toMatchObject({ reason: 'root_replaced' });
    expect(toolkit.auditLog[0]).toMatchObject({ outcome: 'refused', code: 'root_replaced' });
  });

  it('audits calls that never ran because the root is gone as refused, not allowed', async () => {
    const files = new FilesystemToolkit({ root: layout.root });
    const processes = new ProcessToolkit({ root: layout.root, executables: { pwd: '/bin/pwd' } });
    await fs.rm(layout.root, { recursive: true });
    expectFailure(files, await files.invoke('fs_read', { path: 'file.txt' }), 'root_unavailable', 'unavailable');
    expectFailure(files, await files.invoke('fs_list', { path: '.' }), 'root_unavailable', 'unavailable');
    const outcome = await processes.invoke('process_run', { executable: 'pwd' });
    expect(outcome.error?.details).toMatchObject({ reason: 'root_unavailable' });
    expect(processes.auditLog[0]).toMatchObject({ outcome: 'refused', code: 'root_unavailable' });
  });

  it(
    'never creates a directory in the other tree while a second process swaps a parent of the root for a link to it',
    async () => {
      const toolkit = new FilesystemToolkit({ root: layout.root });
      flipper = await flipDirectory(layout.parent, path.join(layout.base, 'other'));
      const codes = new Map<string, number>();
      let calls = 0;
      for (const until = Date.now() + RACE_MS; Date.now() < until; calls += 1) {
        const outcome = await toolkit.invoke('fs_mkdir', { path: `m${calls}/a/b`, recursive: true });
        const code = outcome.ok ? 'ok' : String((outcome.error?.details as { reason?: string }).reason);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
      await flipper.stop();
      flipper = undefined;
      if (process.env.WUWE_RACE_DEBUG) console.log(calls, codes);
      await expect(treeOf(layout.otherRoot)).resolves.toEqual(['file.txt', 'sub']);
      expect(calls).toBeGreaterThan(50);
    },
    RACE_MS + 20_000,
  );
});

describe('FilesystemToolkit audit of a call that never ran', () => {
  it('audits a call cancelled before it started as failed, not allowed, and does nothing', async () => {
    const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wuwe-root-')));
    try {
      const toolkit = new FilesystemToolkit({ root: base });
      const aborted = new AbortController();
      aborted.abort();
      const outcome = await toolkit.invoke('fs_write', { path: 'new.txt', content: 'x' }, aborted.signal);
      expect(outcome.error).toMatchObject({ code: 'cancelled', details: { reason: 'cancelled' } });
      expect(toolkit.auditLog).toEqual([
        expect.objectContaining({ operation: 'write', path: 'new.txt', outcome: 'failed', code: 'cancelled' }),
      ]);
      await expect(fs.readdir(base)).resolves.toEqual([]);
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  });
});
