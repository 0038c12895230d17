import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProcessToolkit, isDeniedEnvironmentName } from '../../../lib/modules/process';
import { EXECUTABLES, ProcessSandbox, expectRunFailure, makeProcessSandbox, runData } from './process-sandbox';

/**
 * Program-configuration injection: each of these makes some program load or run code, or read config from elsewhere.
 */
const INJECTION_NAMES = [
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_KEY_0',
  'GIT_CONFIG_VALUE_0',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_SSH_VARIANT',
  'GIT_EXEC_PATH',
  'GIT_ASKPASS',
  'GIT_EDITOR',
  'GIT_PAGER',
  'GIT_SEQUENCE_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR',
  'GIT_DIR',
  'GIT_ALLOW_PROTOCOL',
  'GIT_TRACE',
  'GIT_TRACE2_EVENT',
  'BASH_ENV',
  'ENV',
  'BASH_LOADABLES_PATH',
  'BASH_XTRACEFD',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PS1',
  'PROMPT_COMMAND',
  'IFS',
  'FPATH',
  'ZDOTDIR',
  'CDPATH',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONWARNINGS',
  'PYTHONBREAKPOINT',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'PERL_MB_OPT',
  'RUBYOPT',
  'RUBYLIB',
  'GEM_PATH',
  'GEM_HOME',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'NPM_CONFIG_SCRIPT_SHELL',
  'npm_config_node_options',
  'LUA_INIT',
  'LUA_INIT_5_4',
  'LUA_PATH',
  'LUA_CPATH',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'R_PROFILE_USER',
  'TCLLIBPATH',
  'EMACSLOADPATH',
  'VIMINIT',
  'EXINIT',
  'LD_PRELOAD',
  'ld_preload',
  'DYLD_INSERT_LIBRARIES',
  'GCONV_PATH',
  'GLIBC_TUNABLES',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'SSH_ASKPASS',
  'BROWSER',
  'WGETRC',
  'CURL_HOME',
  'BASH_FUNC_x%%',
];

/** Names that look like kin but change no program's code: they stay allowed. */
const BENIGN_NAMES = [
  'LANG',
  'LC_ALL',
  'TZ',
  'TERM',
  'GIT_AUTHOR_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_TERMINAL_PROMPT',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'NODE_ENV',
];

describe('ProcessToolkit environment rules', () => {
  let box: ProcessSandbox;
  beforeEach(async () => {
    box = await makeProcessSandbox();
  });
  afterEach(() => box.cleanup());

  it.each(INJECTION_NAMES)('drops %s even when the host allow-lists it', (name) => {
    expect(isDeniedEnvironmentName(name)).toBe(true);
  });

  it.each(BENIGN_NAMES)('keeps %s when allow-listed', (name) => {
    expect(isDeniedEnvironmentName(name)).toBe(false);
  });

  it('passes none of the injection variables to a real child, whether from the base environment, the fixed values or the caller', async () => {
    const names = INJECTION_NAMES.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
    const base = Object.fromEntries(names.map((name) => [name, 'injected']));
    const toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      envAllowList: [...names, 'LANG'],
      baseEnv: { ...base, LANG: 'C' },
      fixedEnv: base,
    });
    expect(toolkit.policy.envAllowList).toEqual(['LANG']);
    const data = runData(await toolkit.invoke('process_run', { executable: 'env' }));
    expect(data.stdout).toBe('LANG=C\n');
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'env', env: { GIT_CONFIG_COUNT: '1' } }),
      'env_not_allowed',
    );
  });

  it('keeps core.fsmonitor set through GIT_CONFIG_* from making git status run a command', async () => {
    execFileSync('git', ['init', '-q', box.root]);
    await fs.writeFile(path.join(box.root, 'file.txt'), 'x');
    const pwned = path.join(box.outside, 'pwned');
    const hook = {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: `touch ${pwned}; false`,
    };
    const parameters = { GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='touch ${pwned}; false'` };
    const names = [...Object.keys(hook), ...Object.keys(parameters)];
    const host = new ProcessToolkit({
      root: box.root,
      executables: { git: 'git' },
      envAllowList: names,
      baseEnv: { ...hook, ...parameters },
      fixedEnv: hook,
    });
    const status = runData(await host.invoke('process_run', { executable: 'git', args: ['status', '--porcelain'] }));
    expect(status.stdout).toContain('file.txt');
    expect(existsSync(pwned)).toBe(false);
    const viaModel = await host.invoke('process_run', { executable: 'git', args: ['status'], env: hook });
    expectRunFailure(host, viaModel, 'env_not_allowed');
    expect(existsSync(pwned)).toBe(false);
  });

  it('does not let the caller point HOME or XDG_CONFIG_HOME elsewhere, though the host may pass its own', async () => {
    const toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      envAllowList: ['HOME', 'XDG_CONFIG_HOME'],
      baseEnv: { HOME: '/home/host' },
    });
    expect(runData(await toolkit.invoke('process_run', { executable: 'env' })).stdout).toBe('HOME=/home/host\n');
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'env', env: { HOME: box.root } }),
      'env_not_allowed',
    );
    expectRunFailure(
      toolkit,
      await toolkit.invoke('process_run', { executable: 'env', env: { XDG_CONFIG_HOME: box.root } }),
      'env_not_allowed',
    );
  });

  describe('PATH', () => {
    it('drops empty, relative and in-root entries of PATH from every source', async () => {
      await fs.mkdir(path.join(box.root, 'bin'));
      await fs.symlink(path.join(box.root, 'bin'), path.join(box.outside, 'to-root-bin'));
      const hostile = [
        '',
        '.',
        'bin',
        './node_modules/.bin',
        '/usr/bin',
        `${box.root}/bin`,
        `${box.root}/sub/../bin`,
        box.root,
        path.join(box.outside, 'to-root-bin'),
        '/bin',
        '',
      ].join(':');
      const fromBase = new ProcessToolkit({
        root: box.root,
        executables: EXECUTABLES,
        envAllowList: ['PATH'],
        baseEnv: { PATH: hostile },
      });
      expect(runData(await fromBase.invoke('process_run', { executable: 'env' })).stdout).toBe('PATH=/usr/bin:/bin\n');
      const fromFixed = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, fixedEnv: { PATH: hostile } });
      expect(runData(await fromFixed.invoke('process_run', { executable: 'env' })).stdout).toBe('PATH=/usr/bin:/bin\n');
      expect(runData(await fromBase.invoke('process_run', { executable: 'env', env: { PATH: hostile } })).stdout).toBe(
        'PATH=/usr/bin:/bin\n',
      );
    });

    it('leaves PATH out when no entry survives, so no search falls back to the working directory', async () => {
      const toolkit = new ProcessToolkit({
        root: box.root,
        executables: EXECUTABLES,
        envAllowList: ['PATH'],
        baseEnv: {},
      });
      expect(runData(await toolkit.invoke('process_run', { executable: 'env', env: { PATH: ':.:bin' } })).stdout).toBe(
        '',
      );
    });

    it('keeps a child from running a program planted in the root through a relative PATH entry', async () => {
      await fs.mkdir(path.join(box.root, 'bin'));
      await fs.writeFile(path.join(box.root, 'bin', 'ls'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
      const toolkit = new ProcessToolkit({
        root: box.root,
        executables: EXECUTABLES,
        envAllowList: ['PATH'],
        baseEnv: { PATH: 'bin:/usr/bin:/bin' },
      });
      const data = runData(await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', 'ls -d .'] }));
      expect(data.stdout).toBe('.\n');
    });
  });
});
