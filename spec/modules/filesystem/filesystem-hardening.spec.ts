import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { JsonObject } from '../../../lib/outcome/json-value';
import { ScriptedModelClient } from '../../../lib/model/scripted-model-client';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { LlmAgentRunner } from '../../../lib/runner/llm-agent-runner';
import { Sandbox, dataOf, expectFailure, makeSandbox } from './sandbox';

/** Names of `directory`, sorted. */
const namesIn = async (directory: string): Promise<string[]> => (await fs.readdir(directory)).sort();

describe('FilesystemToolkit clean-up and creation relative to checked handles', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root });
    await fs.mkdir(path.join(box.root, 'd'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await box.cleanup();
  });

  const swapD = async (): Promise<void> => {
    await fs.rename(path.join(box.root, 'd'), path.join(box.root, 'moved'));
    await fs.symlink(box.outside, path.join(box.root, 'd'));
  };

  it('mkdir whose parent is swapped for a link right after the directory was made removes nothing outside', async () => {
    await fs.mkdir(path.join(box.outside, 'sub'));
    const original = fs.mkdir.bind(fs);
    jest.spyOn(fs, 'mkdir').mockImplementation(async (...args: Parameters<typeof fs.mkdir>) => {
      const made = await original(...args);
      jest.restoreAllMocks();
      await swapD();
      return made;
    });
    await toolkit.invoke('fs_mkdir', { path: 'd/sub' });
    jest.restoreAllMocks();
    await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt', 'sub']);
    await expect(namesIn(path.join(box.root, 'moved'))).resolves.toEqual(['sub']);
  });

  it('write through an in-root link to d/target.txt creates nothing outside when d is swapped before the open', async () => {
    await fs.writeFile(path.join(box.root, 'd', 'target.txt'), 'inside');
    await fs.symlink('d/target.txt', path.join(box.root, 'link'));
    // The first look at target.txt swaps d for a link to outside, the next look at anything swaps it back.
    const original = fs.lstat.bind(fs);
    let state: 'waiting' | 'swapped' | 'restored' = 'waiting';
    jest.spyOn(fs, 'lstat').mockImplementation((async (target: string) => {
      if (state === 'waiting' && String(target).endsWith('/target.txt')) {
        state = 'swapped';
        await swapD();
        return original(target);
      }
      if (state === 'swapped') {
        state = 'restored';
        await fs.unlink(path.join(box.root, 'd'));
        await fs.rename(path.join(box.root, 'moved'), path.join(box.root, 'd'));
      }
      return original(target);
    }) as never);
    const outcome = await toolkit.invoke('fs_write', { path: 'link', content: 'new' });
    jest.restoreAllMocks();
    await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
    if (outcome.ok) await expect(fs.readFile(path.join(box.root, 'd', 'target.txt'), 'utf8')).resolves.toBe('new');
    else expect((outcome.error?.details as { reason?: string } | undefined)?.reason).toBe('symlink_escape');
  });

  it('recursive delete removes a subdirectory swapped for a link during the walk as a link, never what it points to', async () => {
    await fs.mkdir(path.join(box.root, 'd', 'a'));
    await fs.mkdir(path.join(box.root, 'd', 'b'));
    await fs.writeFile(path.join(box.root, 'd', 'b', 'secret.txt'), 'inside copy');
    const original = fs.readdir.bind(fs);
    jest.spyOn(fs, 'readdir').mockImplementation(async (...args: Parameters<typeof fs.readdir>) => {
      const listed = await original(...args);
      jest.restoreAllMocks();
      await fs.rename(path.join(box.root, 'd', 'b'), path.join(box.root, 'b-moved'));
      await fs.symlink(box.outside, path.join(box.root, 'd', 'b'));
      return listed;
    });
    const deleter = new FilesystemToolkit({ root: box.root, approve: () => true });
    expect(dataOf(await deleter.invoke('fs_delete', { path: 'd', recursive: true }))).toMatchObject({ deleted: true });
    await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
    await expect(namesIn(box.root)).resolves.toEqual(['b-moved']);
  });

  it('follows in-root links (relative, absolute, chained) and refuses one leaving the root', async () => {
    await fs.writeFile(path.join(box.root, 'd', 'target.txt'), 'inside');
    await fs.symlink('d/target.txt', path.join(box.root, 'relative'));
    await fs.symlink(path.join(box.root, 'd', 'target.txt'), path.join(box.root, 'absolute'));
    await fs.symlink('../root/d/target.txt', path.join(box.root, 'around'));
    await fs.symlink('../relative', path.join(box.root, 'd', 'chained'));
    await fs.symlink('../../outside/secret.txt', path.join(box.root, 'd', 'away'));
    for (const name of ['relative', 'absolute', 'around', 'd/chained'])
      expect(dataOf(await toolkit.invoke('fs_read', { path: name })).content).toBe('inside');
    expectFailure(toolkit, await toolkit.invoke('fs_read', { path: 'd/away' }), 'symlink_escape');
    expect(dataOf(await toolkit.invoke('fs_append', { path: 'd/chained', content: '+' }))).toMatchObject({
      created: false,
    });
    await expect(fs.readFile(path.join(box.root, 'd', 'target.txt'), 'utf8')).resolves.toBe('inside+');
  });
});

describe('FilesystemToolkit hard links, special files and input checks', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await box.cleanup();
  });

  it('stat and list withhold size, times and mode of a file with several hard links, saying why', async () => {
    await fs.utimes(path.join(box.outside, 'secret.txt'), new Date(1_000_000_000_000), new Date(1_000_000_000_000));
    await fs.link(path.join(box.outside, 'secret.txt'), path.join(box.root, 'hard.txt'));
    await fs.writeFile(path.join(box.root, 'plain.txt'), 'abc');
    const stat = dataOf(await toolkit.invoke('fs_stat', { path: 'hard.txt' }));
    expect(stat).toEqual({ path: 'hard.txt', type: 'file', links: 2, withheld: 'hard_link' });
    const listed = dataOf(await toolkit.invoke('fs_list', {}));
    expect(listed.entries).toEqual([
      { name: 'hard.txt', type: 'file', withheld: 'hard_link' },
      { name: 'plain.txt', type: 'file', size: 3 },
    ]);
    const text = JSON.stringify([stat, listed]);
    expect(text).not.toContain('14');
    expect(text).not.toContain('2001-09-09');
    expect(dataOf(await toolkit.invoke('fs_stat', { path: 'plain.txt' }))).toMatchObject({
      type: 'file',
      size: 3,
      links: 1,
    });
  });

  it('search on a FIFO or a regular file answers not_a_directory like list', async () => {
    execFileSync('mkfifo', [path.join(box.root, 'pipe')]);
    await fs.writeFile(path.join(box.root, 'file.txt'), 'x');
    for (const target of ['pipe', 'file.txt']) {
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_list', { path: target }),
        'not_a_directory',
        'precondition_failed',
        'allowed',
      );
      expectFailure(
        toolkit,
        await toolkit.invoke('fs_search', { path: target, pattern: 'x' }),
        'not_a_directory',
        'precondition_failed',
        'allowed',
      );
    }
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_search', { path: 'missing', pattern: 'x' }),
      'not_found',
      'not_found',
      'allowed',
    );
  });

  it('checks its own input when called directly: lone surrogates, NUL and over-long patterns are refused, nothing is created', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['fs_write', { path: 'a\uD800b.txt', content: 'x' }, 'invalid_path'],
      ['fs_write', { path: 'low\uDC00', content: 'x' }, 'invalid_path'],
      ['fs_mkdir', { path: 'dir\uD83D' }, 'invalid_path'],
      ['fs_move', { from: 'x', to: 'y\uDFFF' }, 'invalid_path'],
      ['fs_write', { path: 'ok.txt', content: 'lone \uD800 surrogate' }, 'invalid_arguments'],
      ['fs_write', { path: 'nul\0.txt', content: 'x' }, 'invalid_path'],
      ['fs_search', { pattern: 'x'.repeat(256) }, 'invalid_arguments'],
      ['fs_search', { pattern: '\uD800' }, 'invalid_arguments'],
    ];
    for (const [toolName, args, reason] of cases) {
      const outcome = await toolkit.invokeTool({ toolName, arguments: args, callId: 'c' } as never);
      expectFailure(toolkit, outcome, reason, 'invalid_arguments');
    }
    await expect(namesIn(box.root)).resolves.toEqual([]);
    expect(
      dataOf(await toolkit.invoke('fs_write', { path: 'pair-\uD83D\uDE00.txt', content: '\uD83D\uDE00' })),
    ).toMatchObject({ created: true });
    await expect(namesIn(box.root)).resolves.toEqual(['pair-😀.txt']);
  });

  it('gives the same outcome code directly and through the runner for a lone surrogate', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'fs_write', arguments: { path: 'a\uD800', content: 'x' } }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, toolkit).complete('write');
    const direct = await toolkit.invoke('fs_write', { path: 'a\uD800', content: 'x' });
    expect(result.toolCalls[0].outcome.error?.code).toBe('invalid_arguments');
    expect(direct.error?.code).toBe('invalid_arguments');
    await expect(namesIn(box.root)).resolves.toEqual([]);
  });

  it('refuses backslashes and drive-letter forms as invalid_path', async () => {
    for (const spelling of [
      '..\\..\\x',
      'C:\\Users\\x',
      'c:/Users/x',
      'C:',
      'a\\b',
      '\\\\server\\share\\x',
      'dir/..\\x',
    ])
      for (const toolName of ['fs_write', 'fs_read', 'fs_mkdir', 'fs_stat'])
        expectFailure(
          toolkit,
          await toolkit.invoke(
            toolName,
            toolName === 'fs_write' ? { path: spelling, content: 'x' } : { path: spelling },
          ),
          'invalid_path',
          'invalid_arguments',
        );
    expectFailure(
      toolkit,
      await toolkit.invoke('fs_move', { from: 'a', to: 'b\\c' }),
      'invalid_path',
      'invalid_arguments',
    );
    await expect(namesIn(box.root)).resolves.toEqual([]);
    await expect(namesIn(box.base)).resolves.toEqual(['outside', 'root', 'root-evil']);
  });

  it('allows backslashes as plain name characters when the policy says so, never drive letters', async () => {
    const lenient = new FilesystemToolkit({ root: box.root, allowBackslashInNames: true });
    expect(dataOf(await lenient.invoke('fs_write', { path: '..\\..\\x', content: 'n' }))).toMatchObject({
      created: true,
    });
    expectFailure(
      lenient,
      await lenient.invoke('fs_write', { path: 'C:\\x', content: 'n' }),
      'invalid_path',
      'invalid_arguments',
    );
    await expect(namesIn(box.root)).resolves.toEqual(['..\\..\\x']);
    await expect(namesIn(box.base)).resolves.toEqual(['outside', 'root', 'root-evil']);
  });
});

describe('FilesystemToolkit errors never carry host paths', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  const documented = [
    'not_found',
    'already_exists',
    'not_empty',
    'not_a_directory',
    'os_permission_denied',
    'io_error',
    'symlink_escape',
    'not_a_regular_file',
    'path_too_long',
  ];
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root, approve: () => true });
    await fs.mkdir(path.join(box.root, 'd'));
    await fs.writeFile(path.join(box.root, 'd', 'f.txt'), 'f');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await box.cleanup();
  });

  const hostFree = (outcome: unknown): void => {
    const text = JSON.stringify(outcome);
    expect(text).not.toContain(box.base);
    expect(text).not.toContain('/proc/');
    expect(text).not.toContain('/tmp');
  };

  it('maps a real unexpected errno (ETXTBSY) to io_error with the root-relative path', async () => {
    await fs.copyFile('/bin/sleep', path.join(box.root, 'busy'));
    await fs.chmod(path.join(box.root, 'busy'), 0o755);
    const child = spawn(path.join(box.root, 'busy'), ['30'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    try {
      const outcome = await toolkit.invoke('fs_write', { path: 'busy', content: 'x' });
      expectFailure(toolkit, outcome, 'io_error', 'tool_error', 'allowed');
      expect(outcome.error?.details).toEqual({ reason: 'io_error', path: 'busy' });
      hostFree(outcome);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('withholds the message of a failing audit sink, which may name host paths', async () => {
    const audited = new FilesystemToolkit({
      root: box.root,
      audit: () => {
        throw new Error(`EACCES: permission denied, open '${box.base}/audit.log'`);
      },
    });
    const outcome = await audited.invoke('fs_read', { path: 'd/f.txt' });
    expect(outcome.error).toMatchObject({ code: 'tool_error' });
    hostFree(outcome);
  });

  const methods = [
    'open',
    'lstat',
    'stat',
    'readdir',
    'mkdir',
    'rename',
    'unlink',
    'rmdir',
    'readlink',
    'realpath',
  ] as const;
  const calls: [string, JsonObject][] = [
    ['fs_read', { path: 'd/f.txt' }],
    ['fs_list', { path: 'd' }],
    ['fs_stat', { path: 'd/f.txt' }],
    ['fs_search', { pattern: 'f' }],
    ['fs_write', { path: 'd/new.txt', content: 'x' }],
    ['fs_append', { path: 'd/f.txt', content: 'x' }],
    ['fs_mkdir', { path: 'd/e/g', recursive: true }],
    ['fs_move', { from: 'd/f.txt', to: 'd/g.txt' }],
    ['fs_delete', { path: 'd', recursive: true }],
  ];

  it.each(methods)('maps an unexpected failure of fs.%s to a documented code with no host path', async (method) => {
    for (const [toolName, args] of calls) {
      const spy = jest.spyOn(fs, method).mockImplementation((async (target: unknown) => {
        throw Object.assign(new Error(`EMFILE: too many open files, ${method} '${String(target)}'`), {
          code: 'EMFILE',
          errno: -24,
          syscall: method,
          path: String(target),
        });
      }) as never);
      const outcome = await toolkit.invoke(toolName, args);
      spy.mockRestore();
      hostFree(outcome);
      if (!outcome.ok)
        expect(documented).toContain((outcome.error?.details as { reason?: string } | undefined)?.reason);
    }
    for (const [toolName, args] of calls) {
      const spy = jest.spyOn(fs, method).mockImplementation((async (target: unknown) => {
        throw new TypeError(`unexpected failure at ${String(target)} in ${box.root}`);
      }) as never);
      const outcome = await toolkit.invoke(toolName, args);
      spy.mockRestore();
      hostFree(outcome);
    }
  });
});
