import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FilesystemError, FilesystemToolkit, compileFilesystemPolicy } from '../../../lib/modules/filesystem';
import { TOOL_NAME_PATTERN } from '../../../lib/contract/llm-tool';
import { Sandbox, expectFailure, makeSandbox } from './sandbox';

describe('compileFilesystemPolicy', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
  });
  afterEach(() => box.cleanup());

  it('fills defaults, resolves the root and freezes', async () => {
    await fs.symlink(box.root, path.join(box.base, 'root-alias'));
    const policy = compileFilesystemPolicy({ root: path.join(box.base, 'root-alias') });
    expect(policy).toMatchObject({
      root: box.root,
      readOnly: false,
      maxReadBytes: 1_048_576,
      maxWriteBytes: 1_048_576,
      maxListEntries: 1000,
    });
    expect(policy.operations).toHaveLength(9);
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it('throws invalid_root for a missing root or a file', async () => {
    expect(() => compileFilesystemPolicy({ root: path.join(box.base, 'missing') })).toThrow(FilesystemError);
    expect(() => compileFilesystemPolicy({ root: path.join(box.outside, 'secret.txt') })).toThrow(
      expect.objectContaining({ code: 'invalid_root' }),
    );
    expect(() => compileFilesystemPolicy({ root: '' })).toThrow(expect.objectContaining({ code: 'invalid_root' }));
  });

  it('throws invalid_policy listing every problem', () => {
    expect(() =>
      compileFilesystemPolicy({ root: box.root, maxReadBytes: 0, operations: ['read', 'chmod' as any] }),
    ).toThrow(/maxReadBytes must be a positive integer.*operations has unknown operation 'chmod'/);
  });
});

describe('FilesystemToolkit descriptors and policy', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
  });
  afterEach(() => box.cleanup());

  it('declares honest contracts and no capabilities', () => {
    const toolkit = new FilesystemToolkit({ root: box.root });
    const byName = Object.fromEntries(toolkit.listTools().map((d) => [d.name, d]));
    expect(Object.keys(byName)).toEqual([
      'fs_read',
      'fs_list',
      'fs_stat',
      'fs_search',
      'fs_write',
      'fs_append',
      'fs_mkdir',
      'fs_move',
      'fs_delete',
    ]);
    for (const descriptor of toolkit.listTools()) {
      expect(descriptor.name).toMatch(TOOL_NAME_PATTERN);
      expect(descriptor.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(toolkit.capabilities(descriptor.name)).toEqual({
        invocationContext: false,
        idempotencyKey: false,
        heartbeat: false,
        compensation: false,
      });
    }
    expect(byName.fs_read).toMatchObject({ sideEffect: 'read', idempotency: 'idempotent' });
    expect(byName.fs_write).toMatchObject({ sideEffect: 'write' });
    expect(byName.fs_delete).toMatchObject({ sideEffect: 'destructive', approval: 'always' });
    expect(byName.fs_read.inputSchema).toMatchObject({ required: ['path'] });
  });

  it('applies contract overrides and a name prefix', () => {
    const toolkit = new FilesystemToolkit(
      { root: box.root },
      { toolNamePrefix: 'docs', contracts: { delete: { approval: 'never' }, read: { timeoutMs: 500 } } },
    );
    const byName = Object.fromEntries(toolkit.listTools().map((d) => [d.name, d]));
    expect(byName.docs_delete.approval).toBe('never');
    expect(byName.docs_read.timeoutMs).toBe(500);
  });

  it('in read-only mode lists no mutating tool and refuses mutations with read_only', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root, readOnly: true });
    expect(toolkit.listTools().map((d) => d.name)).toEqual(['fs_read', 'fs_list', 'fs_stat', 'fs_search']);
    expectFailure(toolkit, await toolkit.invoke('fs_write', { path: 'a.txt', content: 'a' }), 'read_only');
    expectFailure(toolkit, await toolkit.invoke('fs_mkdir', { path: 'd' }), 'read_only');
    await expect(fs.readdir(box.root)).resolves.toEqual([]);
  });

  it('offers only allowed operations and refuses the others', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root, operations: ['read', 'write'] });
    expect(toolkit.listTools().map((d) => d.name)).toEqual(['fs_read', 'fs_write']);
    await fs.writeFile(path.join(box.root, 'a.txt'), 'a');
    expectFailure(toolkit, await toolkit.invoke('fs_delete', { path: 'a.txt' }), 'operation_not_allowed');
    await expect(fs.readFile(path.join(box.root, 'a.txt'), 'utf8')).resolves.toBe('a');
  });

  it('answers an unknown tool name with a refusal and an audit entry', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root });
    expectFailure(toolkit, await toolkit.invoke('fs_chmod', { path: 'a' }), 'operation_not_allowed');
    expect(toolkit.auditLog[0]).toMatchObject({ operation: 'unknown' });
  });
});
