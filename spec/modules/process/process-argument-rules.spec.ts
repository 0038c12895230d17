import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BUILT_IN_ARGUMENT_PROFILES, ProcessError, ProcessToolkit } from '../../../lib/modules/process';
import { EXECUTABLES, ProcessSandbox, expectRunFailure, makeProcessSandbox, runData } from './process-sandbox';

jest.setTimeout(30_000);

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@example.com',
};

describe('ProcessToolkit argument rules', () => {
  let box: ProcessSandbox;
  let pwned: string;
  let toolkit: ProcessToolkit;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    pwned = path.join(box.outside, 'pwned');
    await fs.writeFile(path.join(box.root, 'file.txt'), 'hello\n');
    toolkit = new ProcessToolkit({
      root: box.root,
      executables: { ...EXECUTABLES, git: 'git', find: 'find', tar: 'tar', sed: 'sed', rg: '/bin/echo' },
      timeoutMs: 5000,
    });
  });
  afterEach(() => box.cleanup());

  const refused = async (executable: string, args: string[], on: ProcessToolkit = toolkit) => {
    expectRunFailure(on, await on.invoke('process_run', { executable, args }), 'argument_not_allowed');
    expect(existsSync(pwned)).toBe(false);
  };

  describe('git', () => {
    beforeEach(() => {
      execFileSync('git', ['init', '-q', box.root]);
      execFileSync('git', ['-C', box.root, 'add', 'file.txt']);
      execFileSync('git', ['-C', box.root, 'commit', '-qm', 'one'], { env: { ...process.env, ...GIT_IDENTITY } });
    });

    it.each([
      [['-c', 'alias.x=!touch PWNED', 'x']],
      [['-c', 'core.pager=touch PWNED; cat', '-p', 'status']],
      [['-ccore.pager=touch PWNED', '-p', 'status']],
      [['--config-env=core.pager=HOME', '-p', 'status']],
      [['--exec-path=/tmp', 'status']],
      [['--git-dir=/tmp/x', 'status']],
      [['fetch', '--upload-pack=touch PWNED; false', '.']],
      [['fetch', '--upload-p=touch PWNED; false', '.']],
      [['clone', '-u', 'touch PWNED; false', '.', 'copy']],
      [['clone', '-utouch PWNED; false', '.', 'copy']],
      [['push', '--receive-pack=touch PWNED; false', '.']],
      [['archive', '--exec=touch PWNED', '--remote=.', 'HEAD']],
      [['fetch', 'ext::sh -c touch% PWNED']],
      [['grep', '--open-files-in-pager=touch PWNED', 'hello']],
      [['grep', '-Otouch PWNED', 'hello']],
      [['rebase', '-x', 'touch PWNED', 'HEAD']],
      [['merge', '-s', 'evil', 'HEAD']],
      [['pull', '--strategy=evil']],
      [['clone', '--config', 'core.fsmonitor=touch PWNED', '.', 'copy']],
      [['diff', '--ext-diff']],
      [['x']],
      [['config', 'core.fsmonitor', 'touch PWNED']],
      [['submodule', 'foreach', 'touch PWNED']],
      [['help', 'status']],
    ])('refuses %j before starting anything', async (args) => {
      await refused(
        'git',
        args.map((arg) => arg.replace('PWNED', pwned)),
      );
    });

    it('still runs the usual read and write subcommands, with the options they share with the refused ones', async () => {
      expect(
        runData(await toolkit.invoke('process_run', { executable: 'git', args: ['status', '--porcelain'] })).exitCode,
      ).toBe(0);
      expect(
        runData(await toolkit.invoke('process_run', { executable: 'git', args: ['log', '-c', '--oneline'] })).stdout,
      ).toContain('one');
      expect(
        runData(
          await toolkit.invoke('process_run', {
            executable: 'git',
            args: ['-C', 'sub', '--no-pager', 'grep', '-c', 'hello', '--', '../file.txt'],
          }),
        ).stdout,
      ).toBe('../file.txt:1\n');
    });

    it('keeps a repository config written by the caller from running its fsmonitor, pager or hooks', async () => {
      execFileSync('git', ['-C', box.root, 'config', 'core.fsmonitor', `touch ${pwned}; false`]);
      execFileSync('git', ['-C', box.root, 'config', 'core.pager', `touch ${pwned}; cat`]);
      await fs.writeFile(path.join(box.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${pwned}\n`, {
        mode: 0o755,
      });
      const withIdentity = new ProcessToolkit({ root: box.root, executables: { git: 'git' }, fixedEnv: GIT_IDENTITY });
      expect(runData(await withIdentity.invoke('process_run', { executable: 'git', args: ['status'] })).exitCode).toBe(
        0,
      );
      expect(
        runData(
          await withIdentity.invoke('process_run', {
            executable: 'git',
            args: ['commit', '--allow-empty', '-m', 'two'],
          }),
        ).exitCode,
      ).toBe(0);
      expect(existsSync(pwned)).toBe(false);
    });
  });

  describe('find', () => {
    it.each([
      [['.', '-exec', 'touch', 'PWNED', ';']],
      [['.', '-execdir', 'touch', 'PWNED', '+']],
      [['.', '-ok', 'touch', 'PWNED', ';']],
      [['.', '-okdir', 'touch', 'PWNED', ';']],
      [['.', '-fprint', 'PWNED']],
      [['.', '-fprint0', 'PWNED']],
      [['.', '-fprintf', 'PWNED', '%p']],
      [['.', '-fls', 'PWNED']],
      [['.', '-name', 'file.txt', '-delete']],
    ])('refuses %j', async (args) => {
      await refused(
        'find',
        args.map((arg) => arg.replace('PWNED', pwned)),
      );
      expect(existsSync(path.join(box.root, 'file.txt'))).toBe(true);
    });

    it('runs a plain search', async () => {
      expect(
        runData(await toolkit.invoke('process_run', { executable: 'find', args: ['.', '-name', '*.txt', '-print'] }))
          .stdout,
      ).toBe('./file.txt\n');
    });
  });

  describe('tar', () => {
    it.each([
      [['-cf', '/dev/null', '--checkpoint=1', '--checkpoint-action=exec=touch PWNED', 'file.txt']],
      [['-cf', '/dev/null', '--checkpoint=1', '--checkpoint-act=exec=touch PWNED', 'file.txt']],
      [['-cf', 'a.tar', '--use-compress-program=touch PWNED', 'file.txt']],
      [['-cf', 'a.tar', '-I', 'touch PWNED', 'file.txt']],
      [['-cIf', 'touch PWNED', 'a.tar', 'file.txt']],
      [['cIf', 'touch PWNED', 'a.tar', 'file.txt']],
      [['-xf', 'a.tar', '--to-command=touch PWNED']],
      [['-cf', 'a.tar', '--rsh-command=/bin/touch', 'file.txt']],
      [['-cf', 'a.tar', '-M', '-F', 'touch PWNED', 'file.txt']],
      [['-cf', 'a.tar', '--info-script=touch PWNED', 'file.txt']],
      [['-cf', 'a.tar', '--new-volume-script=touch PWNED', 'file.txt']],
    ])('refuses %j', async (args) => {
      await refused(
        'tar',
        args.map((arg) => arg.replace('PWNED', pwned)),
      );
    });

    it('treats an archive name with a colon as a local file', async () => {
      const data = runData(
        await toolkit.invoke('process_run', { executable: 'tar', args: ['-cf', 'host:a.tar', 'file.txt'] }),
      );
      expect(data.exitCode).toBe(0);
      expect(existsSync(path.join(box.root, 'host:a.tar'))).toBe(true);
    });
  });

  describe('rg', () => {
    it.each([
      [['--pre', 'sh', 'x']],
      [['--pre=sh', 'x']],
      [['--pre-glob=*', 'x']],
      [['-z', 'x']],
      [['-iz', 'x']],
      [['--search-zip', 'x']],
      [['--hostname-bin=sh', 'x']],
    ])('refuses %j', async (args) => {
      await refused('rg', args);
    });
  });

  describe('sed', () => {
    it('runs in sandbox mode: the e and w commands fail inside sed, running and writing nothing', async () => {
      for (const script of [`1e touch ${pwned}`, `s/hello/x/e`, `w ${pwned}`, `s/hello/x/w ${pwned}`]) {
        const data = runData(
          await toolkit.invoke('process_run', { executable: 'sed', args: ['-n', script, 'file.txt'] }),
        );
        expect(data.exitCode).not.toBe(0);
      }
      expect(existsSync(pwned)).toBe(false);
      expect(
        runData(await toolkit.invoke('process_run', { executable: 'sed', args: ['s/hello/bye/', 'file.txt'] })).stdout,
      ).toBe('bye\n');
    });
  });

  describe('env', () => {
    it('prints the environment but runs no program', async () => {
      await refused('env', ['touch', pwned]);
      await refused('env', ['A=1', 'touch', pwned]);
      await refused('env', ['-S', `touch ${pwned}`]);
      await refused('env', [`--split-string=touch ${pwned}`]);
      expect(runData(await toolkit.invoke('process_run', { executable: 'env', args: ['-i', 'A=1'] })).stdout).toBe(
        'A=1\n',
      );
    });
  });

  describe('policy', () => {
    it('applies a host rule for any executable and lets the host replace a built-in profile', async () => {
      const custom = new ProcessToolkit({
        root: box.root,
        executables: { echo: '/bin/echo', find: 'find' },
        argumentRules: {
          echo: { deniedOptions: ['-e', '--help'] },
          find: {
            ...BUILT_IN_ARGUMENT_PROFILES.find,
            deniedOptions: [...(BUILT_IN_ARGUMENT_PROFILES.find.deniedOptions ?? []), '-name'],
          },
        },
      });
      await refused('echo', ['-ne', 'x'], custom);
      await refused('echo', ['--he'], custom);
      await refused('find', ['.', '-name', 'x'], custom);
      await refused('find', ['.', '-exec', 'true', ';'], custom);
      expect(runData(await custom.invoke('process_run', { executable: 'echo', args: ['-n', 'x'] })).stdout).toBe('x');
    });

    it("turns a built-in profile off only when the host says 'unrestricted'", async () => {
      const open = new ProcessToolkit({
        root: box.root,
        executables: { find: 'find' },
        argumentRules: { find: 'unrestricted' },
      });
      runData(
        await open.invoke('process_run', {
          executable: 'find',
          args: ['.', '-maxdepth', '0', '-exec', 'touch', pwned, ';'],
        }),
      );
      expect(existsSync(pwned)).toBe(true);
    });

    it('refuses a malformed rule at construction', () => {
      expect(
        () =>
          new ProcessToolkit({
            root: box.root,
            executables: EXECUTABLES,
            argumentRules: { echo: { deniedOptions: ['x'] } },
          }),
      ).toThrow(ProcessError);
      expect(
        () => new ProcessToolkit({ root: box.root, executables: EXECUTABLES, argumentRules: { nope: {} } }),
      ).toThrow(/nope/);
    });

    it('tells the model which subcommands and options are refused', () => {
      const description = toolkit.listTools()[0].description;
      expect(description).toContain('git');
      expect(description).toContain('status');
    });
  });
});
