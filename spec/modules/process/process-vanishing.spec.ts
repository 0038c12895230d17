import { copyFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProcessError, ProcessToolkit } from '../../../lib/modules/process';
import { planRun, startPlannedRun } from '../../../lib/modules/process/process-run-plan';
import { ToolArguments } from '../../../lib/modules/filesystem/tool-arguments';
import { EXECUTABLES, ProcessSandbox, expectRunFailure, makeProcessSandbox } from './process-sandbox';

/** A path naming the entry `sub`: by its host path or through a directory handle (`/proc/self/fd/N/sub`). */
const namesSub = (target: unknown): boolean => typeof target === 'string' && target.endsWith('/sub');

/**
 * Runs `action` with `fs[method]` removing `victim` just before it acts on a path `matches` accepts (by default
 * `victim` itself).
 */
async function withVanishing<T>(
  method: 'stat' | 'open',
  victim: string,
  action: () => Promise<T>,
  matches = (target: unknown) => target === victim,
): Promise<T> {
  const original = (fs[method] as (...args: unknown[]) => Promise<unknown>).bind(fs);
  jest.spyOn(fs, method).mockImplementation((async (target: unknown, ...rest: unknown[]) => {
    if (matches(target)) await fs.rm(victim, { recursive: true, force: true });
    return original(target, ...rest);
  }) as never);
  try {
    return await action();
  } finally {
    jest.restoreAllMocks();
  }
}

describe('ProcessToolkit when the working directory or the executable vanishes', () => {
  let box: ProcessSandbox;
  let toolkit: ProcessToolkit;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES });
  });
  afterEach(() => box.cleanup());

  const noHostPath = (value: unknown) => expect(JSON.stringify(value)).not.toContain(box.base);

  it('answers cwd_not_found with root-relative paths when the directory vanishes while it is checked', async () => {
    const outcome = await withVanishing('stat', path.join(box.root, 'sub'), () =>
      toolkit.invoke('process_run', { executable: 'pwd', cwd: 'sub' }),
    );
    expectRunFailure(toolkit, outcome, 'cwd_not_found', 'not_found', 'failed');
    noHostPath(outcome);
    expect(outcome.error?.details).toMatchObject({ cwd: 'sub' });
  });

  it('answers cwd_not_found, not cwd_outside_root, when the directory vanishes between the check and the spawn', async () => {
    const outcome = await withVanishing(
      'open',
      path.join(box.root, 'sub'),
      () => toolkit.invoke('process_run', { executable: 'pwd', cwd: 'sub' }),
      namesSub,
    );
    expectRunFailure(toolkit, outcome, 'cwd_not_found', 'not_found', 'failed');
    noHostPath(outcome);
  });

  it('throws cwd_not_found from startPlannedRun for a planned directory removed before the start', async () => {
    const plan = await planRun(
      'run',
      ToolArguments.of(
        { executable: 'pwd', cwd: 'sub' },
        ['executable', 'cwd'],
        (m) => new ProcessError('invalid_arguments', m),
      ),
      toolkit.policy,
    );
    await fs.rmdir(path.join(box.root, 'sub'));
    const error = await startPlannedRun(plan, toolkit.policy).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessError);
    expect(error).toMatchObject({ code: 'cwd_not_found' });
    noHostPath((error as Error).message);
  });

  it('answers executable_unavailable without the host path when the configured executable was removed', async () => {
    const tool = path.join(box.base, 'tool');
    copyFileSync('/bin/echo', tool);
    await fs.chmod(tool, 0o755);
    const pinned = new ProcessToolkit({ root: box.root, executables: { tool } });
    await fs.rm(tool);
    const outcome = await pinned.invoke('process_run', { executable: 'tool', args: ['x'] });
    expectRunFailure(pinned, outcome, 'executable_unavailable', 'unavailable', 'failed');
    noHostPath(outcome);
    expect(pinned.auditLog[0].error).toContain(tool);
  });

  it('answers cwd_not_accessible, naming no host path, when the OS refuses to open the directory', async () => {
    const victim = path.join(box.root, 'sub');
    const original = fs.open.bind(fs);
    jest.spyOn(fs, 'open').mockImplementation((async (target: string, ...rest: never[]) => {
      if (namesSub(target))
        throw Object.assign(new Error(`EACCES: permission denied, open '${victim}'`), { code: 'EACCES', path: victim });
      return original(target, ...rest);
    }) as never);
    try {
      const outcome = await toolkit.invoke('process_run', { executable: 'pwd', cwd: 'sub' });
      expectRunFailure(toolkit, outcome, 'cwd_not_accessible', 'permission_denied', 'failed');
      noHostPath(outcome);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
