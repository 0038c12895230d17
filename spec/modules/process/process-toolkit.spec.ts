import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProcessError, ProcessToolkit } from '../../../lib/modules/process';
import { EXECUTABLES, ProcessSandbox, expectRunFailure, makeProcessSandbox, runData } from './process-sandbox';

describe('ProcessToolkit', () => {
  let box: ProcessSandbox;
  let toolkit: ProcessToolkit;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES });
  });
  afterEach(() => box.cleanup());

  it('runs an allowed executable argv-first: arguments are never interpreted by a shell', async () => {
    const data = runData(
      await toolkit.invoke('process_run', { executable: 'echo', args: ['a; touch pwned', '$HOME', '`id`'] }),
    );
    expect(data).toMatchObject({
      exitCode: 0,
      signal: null,
      stdout: 'a; touch pwned $HOME `id`\n',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
    await expect(fs.readdir(box.root)).resolves.toEqual(['sub']);
    expect(toolkit.auditLog).toEqual([
      expect.objectContaining({
        operation: 'run',
        executable: 'echo',
        args: ['a; touch pwned', '$HOME', '`id`'],
        cwd: '.',
        outcome: 'allowed',
        exitCode: 0,
      }),
    ]);
  });

  it('reports a non-zero exit code as structured data', async () => {
    expect(
      runData(await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', 'echo oops >&2; exit 3'] })),
    ).toMatchObject({
      exitCode: 3,
      stderr: 'oops\n',
    });
  });

  it('passes stdin and refuses stdin over the limit', async () => {
    expect(runData(await toolkit.invoke('process_run', { executable: 'cat', stdin: 'from stdin' })).stdout).toBe(
      'from stdin',
    );
    const small = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, maxStdinBytes: 4 });
    expectRunFailure(small, await small.invoke('process_run', { executable: 'cat', stdin: 'too long' }), 'too_large');
  });

  it('enforces the allow list, by name only', async () => {
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'rm', args: ['-rf', box.root] }),
      'executable_not_allowed',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: '/bin/rm', args: ['-rf', box.root] }),
      'executable_not_allowed',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'toString' }),
      'executable_not_allowed',
    );
    await expect(fs.stat(box.root)).resolves.toBeDefined();
    expect(toolkit.auditLog.map((entry) => entry.outcome)).toEqual(['refused', 'refused', 'refused']);
  });

  it('resolves executables at configuration time: a fake earlier in PATH changes nothing', async () => {
    const fakeDir = path.join(box.base, 'fake-bin');
    await fs.mkdir(fakeDir);
    await fs.writeFile(path.join(fakeDir, 'echo'), '#!/bin/sh\nprintf FAKE\n', { mode: 0o755 });
    const byName = new ProcessToolkit({ root: box.root, executables: ['echo'], searchPath: '/usr/bin:/bin' });
    expect(byName.policy.executables.echo).toBe(await fs.realpath('/bin/echo'));
    const savedPath = process.env.PATH;
    process.env.PATH = `${fakeDir}:${savedPath ?? ''}`;
    try {
      expect(runData(await byName.invoke('process_run', { executable: 'echo', args: ['real'] })).stdout).toBe('real\n');
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('throws typed configuration errors', () => {
    const construct = (executables: Record<string, string> | string[]) => () =>
      new ProcessToolkit({ root: box.root, executables, searchPath: '/usr/bin' });
    expect(construct({ ghost: 'no-such-program-xyz' })).toThrow(ProcessError);
    expect(construct({ ghost: 'no-such-program-xyz' })).toThrow(
      expect.objectContaining({ code: 'executable_not_found' }),
    );
    expect(construct({ rel: 'bin/echo' })).toThrow(expect.objectContaining({ code: 'invalid_policy' }));
    expect(construct({ 'bad name': '/bin/echo' })).toThrow(expect.objectContaining({ code: 'invalid_policy' }));
    expect(() => new ProcessToolkit({ root: path.join(box.base, 'missing'), executables: EXECUTABLES })).toThrow(
      expect.objectContaining({ code: 'invalid_root' }),
    );
    expect(() => new ProcessToolkit({ root: box.root, executables: EXECUTABLES, timeoutMs: 0 })).toThrow(
      /timeoutMs must be a positive integer/,
    );
  });

  it('refuses malformed arguments before starting anything', async () => {
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'echo', args: 'hello' }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'echo', args: ['a\0b'] }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'echo', shell: true }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'echo', cwd: 'a\0' }),
      'invalid_arguments',
      'invalid_arguments',
    );
  });
});

describe('ProcessToolkit environment', () => {
  let box: ProcessSandbox;
  beforeEach(async () => {
    box = await makeProcessSandbox();
  });
  afterEach(() => box.cleanup());

  const baseEnv = {
    KEEP: 'yes',
    SECRET: 'hidden',
    LD_PRELOAD: '/tmp/evil.so',
    NODE_OPTIONS: '--require /tmp/evil.js',
    DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib',
  };

  it('passes only allowed names and drops LD_PRELOAD, NODE_OPTIONS and DYLD_* even when listed', async () => {
    const toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      baseEnv,
      envAllowList: ['KEEP', 'LD_PRELOAD', 'NODE_OPTIONS', 'DYLD_INSERT_LIBRARIES'],
      fixedEnv: { FIXED: '1', LD_LIBRARY_PATH: '/tmp/evil' },
    });
    expect(toolkit.policy.droppedEnvNames).toEqual(['LD_PRELOAD', 'NODE_OPTIONS', 'DYLD_INSERT_LIBRARIES']);
    const lines = (runData(await toolkit.invoke('process_run', { executable: 'env' })).stdout as string)
      .trim()
      .split('\n')
      .sort();
    expect(lines).toEqual(['FIXED=1', 'KEEP=yes']);
  });

  it('lets the caller set allowed names only, refusing the rest', async () => {
    const toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      baseEnv,
      envAllowList: ['KEEP', 'LD_PRELOAD'],
    });
    expect(runData(await toolkit.invoke('process_run', { executable: 'env', env: { KEEP: 'override' } })).stdout).toBe(
      'KEEP=override\n',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'env', env: { LD_PRELOAD: '/tmp/evil.so' } }),
      'env_not_allowed',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'env', env: { SECRET: 'x' } }),
      'env_not_allowed',
    );
  });
});

describe('ProcessToolkit working directory', () => {
  let box: ProcessSandbox;
  let toolkit: ProcessToolkit;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES });
  });
  afterEach(() => box.cleanup());

  it('runs in the root by default and in a subdirectory when asked', async () => {
    expect(runData(await toolkit.invoke('process_run', { executable: 'pwd', args: ['-P'] })).stdout).toBe(
      `${box.root}\n`,
    );
    expect(runData(await toolkit.invoke('process_run', { executable: 'pwd', args: ['-P'], cwd: 'sub' })).stdout).toBe(
      `${path.join(box.root, 'sub')}\n`,
    );
  });

  it('refuses a working directory outside the root', async () => {
    await fs.symlink(box.outside, path.join(box.root, 'escape'));
    await fs.symlink(box.outside, path.join(box.root, 'sub', 'nested'));
    for (const cwd of ['..', '../outside', box.outside, '/', 'escape', 'sub/nested'])
      expectRunFailure(toolkit, await toolkit.invoke('process_run', { executable: 'pwd', cwd }), 'cwd_outside_root');
    expect(toolkit.auditLog).toHaveLength(6);
  });

  it('answers not_found for a missing working directory', async () => {
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'missing' }),
      'cwd_not_found',
      'not_found',
      'failed',
    );
  });
});
