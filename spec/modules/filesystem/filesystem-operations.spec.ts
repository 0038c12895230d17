import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FilesystemAuditEntry, FilesystemToolkit } from '../../../lib/modules/filesystem';
import { ToolInvocation } from '../../../lib/providers/tool-invocation';
import { Sandbox, dataOf, expectFailure, makeSandbox } from './sandbox';

describe('FilesystemToolkit operations', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root });
  });
  afterEach(() => box.cleanup());

  it('writes, appends and reads back a file through invokeTool', async () => {
    const invocation = (toolName: string, args: Record<string, any>): ToolInvocation =>
      ({ toolName, arguments: args, signal: new AbortController().signal }) as unknown as ToolInvocation;
    expect(
      dataOf(await toolkit.invokeTool(invocation('fs_write', { path: 'notes.txt', content: 'hello' }))),
    ).toMatchObject({ bytesWritten: 5, created: true });
    await toolkit.invokeTool(invocation('fs_append', { path: 'notes.txt', content: ' world' }));
    expect(dataOf(await toolkit.invokeTool(invocation('fs_read', { path: 'notes.txt' })))).toMatchObject({
      content: 'hello world',
      eof: true,
      size: 11,
    });
    expect(dataOf(await toolkit.invoke('fs_write', { path: 'notes.txt', content: 'bye' }))).toMatchObject({
      created: false,
    });
    expect(await fs.readFile(path.join(box.root, 'notes.txt'), 'utf8')).toBe('bye');
    expect(toolkit.auditLog.map((entry) => [entry.operation, entry.outcome, entry.bytes])).toEqual([
      ['write', 'allowed', 5],
      ['append', 'allowed', 6],
      ['read', 'allowed', 11],
      ['write', 'allowed', 3],
    ]);
  });

  it('reads and writes base64', async () => {
    await toolkit.invoke('fs_write', {
      path: 'bin',
      content: Buffer.from([0, 255, 1]).toString('base64'),
      encoding: 'base64',
    });
    expect(await fs.readFile(path.join(box.root, 'bin'))).toEqual(Buffer.from([0, 255, 1]));
    expect(dataOf(await toolkit.invoke('fs_read', { path: 'bin', offset: 1, encoding: 'base64' })).content).toBe(
      Buffer.from([255, 1]).toString('base64'),
    );
  });

  it('lists, stats, creates directories and searches by name', async () => {
    expect(dataOf(await toolkit.invoke('fs_mkdir', { path: 'a/b/c', recursive: true }))).toMatchObject({
      created: true,
    });
    expect(dataOf(await toolkit.invoke('fs_mkdir', { path: 'a/b/c', recursive: true }))).toMatchObject({
      created: false,
    });
    expect((await toolkit.invoke('fs_mkdir', { path: 'x/y' })).error?.code).toBe('not_found');
    await fs.writeFile(path.join(box.root, 'a', 'report.md'), '# r');
    await fs.writeFile(path.join(box.root, 'a', 'b', 'c', 'report-2.md'), '# r2');
    await fs.writeFile(path.join(box.root, 'a', 'b', 'notes.txt'), 'n');
    expect(dataOf(await toolkit.invoke('fs_list', { path: 'a' }))).toEqual({
      path: 'a',
      entries: [
        { name: 'b', type: 'directory' },
        { name: 'report.md', type: 'file', size: 3 },
      ],
      total: 2,
      truncated: false,
    });
    expect(dataOf(await toolkit.invoke('fs_stat', { path: 'a/report.md' }))).toMatchObject({
      type: 'file',
      size: 3,
      links: 1,
    });
    const glob = dataOf(await toolkit.invoke('fs_search', { pattern: 'report*.md', mode: 'glob' }));
    expect(glob.results.map((r: { path: string }) => r.path).sort()).toEqual(['a/b/c/report-2.md', 'a/report.md']);
    const substring = dataOf(await toolkit.invoke('fs_search', { pattern: 'notes', path: 'a' }));
    expect(substring.results).toEqual([{ path: 'a/b/notes.txt', type: 'file' }]);
    const bounded = dataOf(await toolkit.invoke('fs_search', { pattern: 'r', maxResults: 1 }));
    expect(bounded).toMatchObject({ truncated: true });
    expect(bounded.results).toHaveLength(1);
  });

  it('moves within the root and refuses to replace a target without overwrite', async () => {
    await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
    await fs.writeFile(path.join(box.root, 'b.txt'), 'b');
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_move', { from: 'a.txt', to: 'b.txt' }),
      'already_exists',
      'conflict',
      'allowed',
    );
    expect(dataOf(await toolkit.invoke('fs_move', { from: 'a.txt', to: 'c.txt' }))).toMatchObject({ replaced: false });
    await expect(fs.readFile(path.join(box.root, 'c.txt'), 'utf8')).resolves.toBe('a');
  });

  it('asks the approval hook before a delete and an overwriting move, and refuses when it says no', async () => {
    const asked: string[] = [];
    let answer = false;
    const guarded = new FilesystemToolkit({
      root: box.root,
      approve: (request) => (asked.push(`${request.operation}:${request.path}`), answer),
    });
    await fs.writeFile(path.join(box.root, 'keep.txt'), 'k');
    await fs.writeFile(path.join(box.root, 'other.txt'), 'o');
    expectFailure(
      guarded,
      await guarded.invoke('fs_delete', { path: 'keep.txt' }),
      'approval_denied',
      'approval_denied',
    );
    expectFailure(
      guarded,
      await guarded.invoke('fs_move', { from: 'other.txt', to: 'keep.txt', overwrite: true }),
      'approval_denied',
      'approval_denied',
    );
    await expect(fs.readFile(path.join(box.root, 'keep.txt'), 'utf8')).resolves.toBe('k');
    answer = true;
    expect(dataOf(await guarded.invoke('fs_delete', { path: 'keep.txt' }))).toMatchObject({
      deleted: true,
      type: 'file',
    });
    expect(asked).toEqual(['delete:keep.txt', 'move:other.txt', 'delete:keep.txt']);
    await expect(fs.stat(path.join(box.root, 'keep.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a hook that throws (fail closed)', async () => {
    const guarded = new FilesystemToolkit({
      root: box.root,
      approve: () => {
        throw new Error('hook down');
      },
    });
    await fs.writeFile(path.join(box.root, 'keep.txt'), 'k');
    expectFailure(
      guarded,
      await guarded.invoke('fs_delete', { path: 'keep.txt' }),
      'approval_denied',
      'approval_denied',
    );
    await expect(fs.stat(path.join(box.root, 'keep.txt'))).resolves.toBeDefined();
  });

  it('deletes a symlink, never its target, and a non-empty directory only with recursive', async () => {
    await fs.symlink(path.join(box.outside, 'secret.txt'), path.join(box.root, 'link'));
    expect(dataOf(await toolkit.invoke('fs_delete', { path: 'link' }))).toMatchObject({ type: 'symlink' });
    await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
    await fs.mkdir(path.join(box.root, 'd'));
    await fs.writeFile(path.join(box.root, 'd', 'f'), 'f');
    expectFailure(toolkit, await toolkit.invoke('fs_delete', { path: 'd' }), 'not_empty', 'conflict', 'allowed');
    expect(dataOf(await toolkit.invoke('fs_delete', { path: 'd', recursive: true }))).toMatchObject({ deleted: true });
  });

  it('refuses content over maxWriteBytes without creating the file', async () => {
    const small = new FilesystemToolkit({ root: box.root, maxWriteBytes: 4 });
    expectFailure(small, await small.invoke('fs_write', { path: 'big.txt', content: 'too long' }), 'too_large');
    await expect(fs.stat(path.join(box.root, 'big.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses bad argument types and unknown arguments before touching anything', async () => {
    expectFailure(toolkit, await toolkit.invoke('fs_read', { path: 42 }), 'invalid_path', 'invalid_arguments');
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_write', { path: 'x', content: 'y', mode: 0o777 }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_read', { path: 'x', offset: -1 }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectFailure(toolkit, await toolkit.invoke('fs_read', null as any), 'invalid_arguments', 'invalid_arguments');
    await expect(fs.stat(path.join(box.root, 'x'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('returns cancelled, touching nothing, when the signal has aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await toolkit.invoke('fs_write', { path: 'late.txt', content: 'x' }, controller.signal);
    expect(outcome.error).toMatchObject({ code: 'cancelled', category: 'cancelled' });
    await expect(fs.stat(path.join(box.root, 'late.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('sends audit entries to a custom sink, and withholds a result when the sink fails', async () => {
    const entries: FilesystemAuditEntry[] = [];
    const sunk = new FilesystemToolkit({ root: box.root, audit: (entry) => void entries.push(entry) });
    await sunk.invoke('fs_list', {});
    await sunk.invoke('fs_read', { path: '../x' });
    expect(entries).toEqual([
      expect.objectContaining({ operation: 'list', path: '', outcome: 'allowed' }),
      expect.objectContaining({ operation: 'read', path: '../x', outcome: 'refused', code: 'path_outside_root' }),
    ]);
    expect(typeof entries[0].at).toBe('string');
    expect(sunk.auditLog).toEqual([]);
    const failing = new FilesystemToolkit({ root: box.root, audit: () => Promise.reject(new Error('disk full')) });
    expect((await failing.invoke('fs_list', {})).error).toMatchObject({ code: 'tool_error' });
  });
});
