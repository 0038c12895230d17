import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { Sandbox, dataOf, expectFailure, makeSandbox } from './sandbox';

describe('FilesystemToolkit root confinement', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;

  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root, maxReadBytes: 64 * 1024 });
  });
  afterEach(() => box.cleanup());

  const read = (p: string) => toolkit.invoke('fs_read', { path: p });
  const write = (p: string, content = 'x') => toolkit.invoke('fs_write', { path: p, content });

  it('refuses ../../etc/passwd as path_outside_root', async () => {
    expectFailure(toolkit, await read('../../etc/passwd'), 'path_outside_root');
    expect(toolkit.auditLog).toEqual([
      expect.objectContaining({ operation: 'read', path: '../../etc/passwd', outcome: 'refused' }),
    ]);
  });

  it('refuses a .. segment that would stay inside the root too', async () => {
    await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
    expectFailure(toolkit, await read('sub/../a.txt'), 'path_outside_root');
  });

  it('refuses an absolute path, even one inside the root', async () => {
    expectFailure(toolkit, await read('/etc/passwd'), 'path_outside_root');
    await fs.writeFile(path.join(box.root, 'in.txt'), 'in');
    expectFailure(toolkit, await read(path.join(box.root, 'in.txt')), 'path_outside_root');
  });

  it('refuses a link into a sibling whose name has the root as prefix (/root-evil)', async () => {
    await fs.symlink(path.join(box.evil, 'secret.txt'), path.join(box.root, 'evil-link'));
    const outcome = await read('evil-link');
    expectFailure(toolkit, outcome, 'symlink_escape');
    expect(JSON.stringify(outcome)).not.toContain('sibling secret');
  });

  it('refuses a symlink to a file outside the root', async () => {
    await fs.symlink(path.join(box.outside, 'secret.txt'), path.join(box.root, 'link.txt'));
    const outcome = await read('link.txt');
    expectFailure(toolkit, outcome, 'symlink_escape');
    expect(JSON.stringify(outcome)).not.toContain('outside secret');
    expectFailure(toolkit, await write('link.txt', 'overwritten'), 'symlink_escape');
    expect(await fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('follows a symlink that stays inside the root', async () => {
    await fs.writeFile(path.join(box.root, 'real.txt'), 'inside');
    await fs.symlink('real.txt', path.join(box.root, 'alias.txt'));
    expect(dataOf(await read('alias.txt')).content).toBe('inside');
  });

  it('refuses a path through a symlinked parent directory pointing outside', async () => {
    await fs.symlink(box.outside, path.join(box.root, 'linked-dir'));
    expectFailure(toolkit, await read('linked-dir/secret.txt'), 'symlink_escape');
    expectFailure(toolkit, await read('linked-dir/missing.txt'), 'symlink_escape');
    expectFailure(toolkit, await write('linked-dir/planted.txt'), 'symlink_escape');
    expectFailure(toolkit, await toolkit.invoke('fs_list', { path: 'linked-dir' }), 'symlink_escape');
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_mkdir', { path: 'linked-dir/sub/deeper', recursive: true }),
      'symlink_escape',
    );
    expectFailure(toolkit, await toolkit.invoke('fs_delete', { path: 'linked-dir/secret.txt' }), 'symlink_escape');
    await expect(fs.readdir(box.outside)).resolves.toEqual(['secret.txt']);
  });

  it('refuses writing through a dangling symlink that points outside', async () => {
    await fs.symlink(path.join(box.outside, 'created.txt'), path.join(box.root, 'dangling'));
    expectFailure(toolkit, await write('dangling', 'planted'), 'symlink_escape');
    await expect(fs.stat(path.join(box.outside, 'created.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses reading and writing a file with a second hard link', async () => {
    await fs.link(path.join(box.outside, 'secret.txt'), path.join(box.root, 'hard.txt'));
    const outcome = await read('hard.txt');
    expectFailure(toolkit, outcome, 'hard_link');
    expect(JSON.stringify(outcome)).not.toContain('outside secret');
    expectFailure(toolkit, await write('hard.txt', 'overwritten'), 'hard_link');
    expectFailure(toolkit, await toolkit.invoke('fs_append', { path: 'hard.txt', content: 'more' }), 'hard_link');
    expect(await fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('refuses a NUL byte as invalid_arguments', async () => {
    expectFailure(toolkit, await read('notes.txt\0../../etc/passwd'), 'invalid_path', 'invalid_arguments');
  });

  it('refuses a component over 255 bytes and a path over 4096 bytes', async () => {
    expectFailure(toolkit, await read('a'.repeat(256)), 'path_too_long', 'invalid_arguments');
    expectFailure(toolkit, await read('ab/'.repeat(1400)), 'path_too_long', 'invalid_arguments');
  });

  it('refuses a FIFO without opening it (the call does not block)', async () => {
    execFileSync('mkfifo', [path.join(box.root, 'pipe')]);
    expectFailure(toolkit, await read('pipe'), 'not_a_regular_file');
    expectFailure(toolkit, await write('pipe', 'data'), 'not_a_regular_file');
  });

  it('refuses a unix socket', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(box.root, 'sock'), resolve));
    try {
      expectFailure(toolkit, await read('sock'), 'not_a_regular_file');
      expectFailure(toolkit, await write('sock', 'data'), 'not_a_regular_file');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a device reached through a symlink (/dev/null)', async () => {
    await fs.symlink('/dev/null', path.join(box.root, 'null'));
    expectFailure(toolkit, await read('null'), 'symlink_escape');
    expectFailure(toolkit, await write('null', 'data'), 'symlink_escape');
  });

  it('refuses a directory for read', async () => {
    await fs.mkdir(path.join(box.root, 'dir'));
    expectFailure(toolkit, await read('dir'), 'not_a_regular_file');
  });

  it('reads only a bounded range of a file larger than the read limit', async () => {
    const big = path.join(box.root, 'big.bin');
    const handle = await fs.open(big, 'w');
    await handle.truncate(3 * 1024 * 1024);
    await handle.write('tail', 3 * 1024 * 1024 - 4);
    await handle.close();
    const first = dataOf(await read('big.bin'));
    expect(first).toMatchObject({
      offset: 0,
      bytesRead: 64 * 1024,
      size: 3 * 1024 * 1024,
      eof: false,
      nextOffset: 64 * 1024,
    });
    const asked = dataOf(await toolkit.invoke('fs_read', { path: 'big.bin', length: 2 * 1024 * 1024 }));
    expect(asked).toMatchObject({ bytesRead: 64 * 1024, lengthLimited: true });
    const tail = dataOf(await toolkit.invoke('fs_read', { path: 'big.bin', offset: 3 * 1024 * 1024 - 4 }));
    expect(tail).toMatchObject({ content: 'tail', eof: true, bytesRead: 4 });
    expect(toolkit.auditLog[0]).toMatchObject({ outcome: 'allowed', bytes: 64 * 1024 });
  });

  it('never lets a move or delete touch the root or leave it', async () => {
    await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_move', { from: 'a.txt', to: '../outside/a.txt' }),
      'path_outside_root',
    );
    expectFailure(toolkit, await toolkit.invoke('fs_delete', { path: '.' }), 'operation_not_allowed');
    expect(toolkit.auditLog[0]).toMatchObject({ operation: 'move', path: 'a.txt', target: '../outside/a.txt' });
  });
});
