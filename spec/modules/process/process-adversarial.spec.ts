import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProcessToolkit } from '../../../lib/modules/process';
import {
  EXECUTABLES,
  ProcessSandbox,
  expectRunFailure,
  isAlive,
  makeProcessSandbox,
  runData,
  waitGone,
} from './process-sandbox';

jest.setTimeout(20_000);

describe('ProcessToolkit under adversarial children and arguments', () => {
  let box: ProcessSandbox;
  let toolkit: ProcessToolkit;
  const started: number[] = [];
  beforeEach(async () => {
    box = await makeProcessSandbox();
    toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, timeoutMs: 700, maxStdoutBytes: 1000 });
  });
  afterEach(async () => {
    for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await box.cleanup();
  });

  it('returns at the time limit even when a grandchild leaves the group with setsid and holds stdout open', async () => {
    const begin = Date.now();
    const outcome = await toolkit.invoke('process_run', {
      executable: 'sh',
      args: ['-c', 'setsid sleep 15 & echo $!; sleep 30'],
    });
    const elapsed = Date.now() - begin;
    const details = outcome.error?.details as Record<string, unknown>;
    started.push(Number.parseInt(String(details.stdout), 10));
    expect(elapsed).toBeLessThan(5000);
    expectRunFailure(toolkit, outcome, 'timeout', 'timeout', 'allowed');
    expect(details).toMatchObject({ signal: 'SIGKILL', exitCode: null });
  });

  it('returns soon after the leader exits even when an escaped grandchild holds stdout open', async () => {
    const slow = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, timeoutMs: 60_000 });
    const begin = Date.now();
    const data = runData(
      await slow.invoke('process_run', {
        executable: 'sh',
        args: ['-c', 'setsid sleep 15 & echo $!; sleep 0.3; echo done'],
      }),
    );
    started.push(Number.parseInt(String(data.stdout), 10));
    expect(Date.now() - begin).toBeLessThan(5000);
    expect(data).toMatchObject({ exitCode: 0, signal: null });
    expect(data.stdout).toMatch(/^\d+\ndone\n$/);
  });

  it('stops waiting at the time limit for an escaped grandchild that keeps writing after the leader exited', async () => {
    const begin = Date.now();
    const script = "setsid sh -c 'while :; do echo tick; sleep 0.05; done' & echo $!; sleep 0.3";
    const outcome = await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', script] });
    const details = outcome.error?.details as Record<string, unknown>;
    started.push(Number.parseInt(String(details.stdout), 10));
    expect(Date.now() - begin).toBeLessThan(5000);
    expectRunFailure(toolkit, outcome, 'timeout', 'timeout', 'allowed');
    expect(details).toMatchObject({ exitCode: 0 });
    expect(String(details.stdout)).toContain('tick');
  });

  it('keeps a 100 MB output flood bounded to the cap, counting what it dropped', async () => {
    const patient = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      timeoutMs: 15_000,
      maxStdoutBytes: 1000,
    });
    const data = runData(
      await patient.invoke('process_run', {
        executable: 'sh',
        args: ['-c', 'head -c 100000000 /dev/zero; echo end >&2'],
      }),
    );
    expect(data).toMatchObject({ exitCode: 0, stdoutTruncated: true, stderr: 'end\n' });
    expect(Buffer.byteLength(data.stdout as string)).toBe(1000);
  });

  it('kills a child that closes stdout and stderr early and keeps running', async () => {
    const begin = Date.now();
    const outcome = await toolkit.invoke('process_run', {
      executable: 'sh',
      args: ['-c', 'echo bye; exec >&- 2>&-; sleep 30'],
    });
    expect(Date.now() - begin).toBeLessThan(5000);
    expectRunFailure(toolkit, outcome, 'timeout', 'timeout', 'allowed');
    expect(outcome.error?.details).toMatchObject({ stdout: 'bye\n' });
  });

  it('delivers a large stdin to a child that never reads it without hanging', async () => {
    const big = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, maxStdinBytes: 4 * 1024 * 1024 });
    const data = runData(
      await big.invoke('process_run', { executable: 'echo', args: ['ignored'], stdin: 'x'.repeat(4 * 1024 * 1024) }),
    );
    expect(data).toMatchObject({ exitCode: 0, stdout: 'ignored\n' });
  });

  it('refuses NUL bytes in arguments and environment values before starting anything', async () => {
    const withEnv = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      envAllowList: ['MODE'],
      baseEnv: {},
    });
    expectRunFailure(
      withEnv,
      await withEnv.invoke('process_run', { executable: 'echo', args: ['a\0b'] }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectRunFailure(
      withEnv,
      await withEnv.invoke('process_run', { executable: 'echo', env: { MODE: 'x\0LD_PRELOAD=/evil.so' } }),
      'invalid_arguments',
      'invalid_arguments',
    );
    expectRunFailure(
      withEnv,
      await withEnv.invoke('process_run', { executable: 'echo\0', args: [] }),
      'executable_not_allowed',
    );
  });

  it('refuses, before starting, an argument over the OS per-argument limit and a flood of empty arguments', async () => {
    const roomy = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, maxArgumentBytes: 64 * 1024 * 1024 });
    expectRunFailure(
      roomy,
      await roomy.invoke('process_run', { executable: 'echo', args: ['x'.repeat(131_072)] }),
      'too_large',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'echo', args: new Array(1_000_000).fill('') }),
      'too_large',
    );
    expect(
      runData(await roomy.invoke('process_run', { executable: 'echo', args: ['x'.repeat(131_071)] })),
    ).toMatchObject({ exitCode: 0, stdoutTruncated: true });
  });

  it('keeps audit entries and messages bounded when the arguments are huge', async () => {
    const many = Array.from({ length: 200_000 }, () => 'argument');
    expectRunFailure(toolkit, await toolkit.invoke('process_run', { executable: 'echo', args: many }), 'too_large');
    const huge = 'y'.repeat(2_000_000);
    const outcome = await toolkit.invoke('process_run', { executable: huge, args: [huge], cwd: huge });
    expectRunFailure(toolkit, outcome, 'executable_not_allowed');
    expect(JSON.stringify(outcome).length).toBeLessThan(10_000);
    for (const entry of toolkit.auditLog) expect(JSON.stringify(entry).length).toBeLessThan(20_000);
    expect(toolkit.auditLog[0].args.length).toBeLessThanOrEqual(65);
  });

  it('keeps running the file resolved at configuration time when the configured symlink is repointed later', async () => {
    const link = path.join(box.base, 'tool');
    await fs.symlink('/bin/echo', link);
    const pinned = new ProcessToolkit({ root: box.root, executables: { tool: link } });
    await fs.rm(link);
    await fs.symlink('/bin/pwd', link);
    expect(runData(await pinned.invoke('process_run', { executable: 'tool', args: ['still echo'] })).stdout).toBe(
      'still echo\n',
    );
  });

  it('confines a working directory reached through symlinks: inside is followed, outside refused', async () => {
    await fs.symlink('sub', path.join(box.root, 'sub-link'));
    await fs.symlink(box.outside, path.join(box.root, 'out-link'));
    expect(runData(await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'sub-link' })).stdout).toBe(
      `${path.join(box.root, 'sub')}\n`,
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'out-link' }),
      'cwd_outside_root',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'out-link/../..' }),
      'cwd_outside_root',
    );
  });

  it('refuses a working directory swapped for a link to outside after it was checked, starting nothing', async () => {
    const original = fs.stat.bind(fs);
    let swapped = false;
    jest.spyOn(fs, 'stat').mockImplementation((async (target: string) => {
      const result = await original(target);
      if (!swapped && target === path.join(box.root, 'sub')) {
        swapped = true;
        await fs.rename(path.join(box.root, 'sub'), path.join(box.root, 'moved'));
        await fs.symlink(box.outside, path.join(box.root, 'sub'));
      }
      return result;
    }) as never);
    try {
      const outcome = await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'sub' });
      expect(JSON.stringify(outcome)).not.toContain(box.outside);
      expectRunFailure(toolkit, outcome, 'cwd_outside_root');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('documents the limit of group kills: a grandchild that calls setsid outlives the run', async () => {
    const patient = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, timeoutMs: 10_000 });
    const data = runData(
      await patient.invoke('process_run', { executable: 'sh', args: ['-c', 'setsid sleep 15 & echo $!; sleep 0.5'] }),
    );
    const escaped = Number.parseInt(String(data.stdout), 10);
    started.push(escaped);
    expect(await waitGone(escaped, 500)).toBe(false);
  });
});
