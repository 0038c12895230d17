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

const GRANDCHILD = 'sleep 100 & echo $!; sleep 100';

function pidIn(text: unknown): number {
  const pid = Number.parseInt(String(text), 10);
  expect(pid).toBeGreaterThan(1);
  return pid;
}

describe('ProcessToolkit limits and cancellation', () => {
  let box: ProcessSandbox;
  let toolkit: ProcessToolkit;
  beforeEach(async () => {
    box = await makeProcessSandbox();
    toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      timeoutMs: 700,
      maxStdoutBytes: 1000,
      maxStderrBytes: 500,
    });
  });
  afterEach(() => box.cleanup());

  it('kills the whole process group, grandchild included, at the time limit', async () => {
    const started = Date.now();
    const outcome = await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', GRANDCHILD] });
    expect(Date.now() - started).toBeLessThan(5000);
    expectRunFailure(toolkit, outcome, 'timeout', 'timeout', 'allowed');
    const details = outcome.error?.details as Record<string, unknown>;
    expect(details).toMatchObject({ signal: 'SIGKILL', exitCode: null });
    const grandchild = pidIn(details.stdout);
    await expect(waitGone(grandchild)).resolves.toBe(true);
    expect(toolkit.auditLog[0]).toMatchObject({ outcome: 'allowed', code: 'timeout', signal: 'SIGKILL' });
  });

  it('leaves no background process behind after a normal exit', async () => {
    const started = Date.now();
    const data = runData(
      await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', 'sleep 100 & echo $!'] }),
    );
    expect(data.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(waitGone(pidIn(data.stdout))).resolves.toBe(true);
  });

  it('caps stdout and stderr separately, each with its truncation flag', async () => {
    const script = 'i=0; while [ $i -lt 300 ]; do echo 0123456789; i=$((i+1)); done; echo short >&2';
    const data = runData(await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', script] }));
    expect(data).toMatchObject({ exitCode: 0, stdoutTruncated: true, stderrTruncated: false, stderr: 'short\n' });
    expect(Buffer.byteLength(data.stdout as string)).toBe(1000);
    const noisy = runData(
      await toolkit.invoke('process_run', {
        executable: 'sh',
        args: ['-c', script.replace('echo 0123456789', 'echo 0123456789 >&2')],
      }),
    );
    expect(noisy).toMatchObject({ stdoutTruncated: false, stderrTruncated: true });
    expect(Buffer.byteLength(noisy.stderr as string)).toBe(500);
  });

  it('kills the group when the abort signal fires', async () => {
    const slow = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, timeoutMs: 60_000 });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 400);
    const started = Date.now();
    const outcome = await slow.invoke('process_run', { executable: 'sh', args: ['-c', GRANDCHILD] }, controller.signal);
    clearTimeout(timer);
    expect(Date.now() - started).toBeLessThan(5000);
    expectRunFailure(slow, outcome, 'cancelled', 'cancelled', 'allowed');
    await expect(waitGone(pidIn((outcome.error?.details as Record<string, unknown>).stdout))).resolves.toBe(true);
  });

  it('starts nothing when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await toolkit.invoke(
      'process_run',
      { executable: 'sh', args: ['-c', 'echo started'] },
      controller.signal,
    );
    expect(outcome.error).toMatchObject({ code: 'cancelled' });
    expect(toolkit.auditLog[0]).toMatchObject({ code: 'cancelled' });
    expect(toolkit.auditLog[0].exitCode).toBeUndefined();
  });

  it('uses the abort signal of invokeTool', async () => {
    const controller = new AbortController();
    const invocation = {
      toolName: 'process_run',
      arguments: { executable: 'sh', args: ['-c', 'sleep 30'] },
      signal: controller.signal,
    } as any;
    const running = toolkit.invokeTool(invocation);
    setTimeout(() => controller.abort(), 100);
    expect((await running).error).toMatchObject({ code: 'cancelled' });
    expect(isAlive(process.pid)).toBe(true);
  });
});

describe('ProcessToolkit raw shell adapter', () => {
  let box: ProcessSandbox;
  beforeEach(async () => {
    box = await makeProcessSandbox();
  });
  afterEach(() => box.cleanup());

  it.each([
    [false, false],
    [true, false],
    [false, true],
  ])('is absent and refused unless both opt in (policy %s, provider %s)', async (allowShell, enableShellTool) => {
    const toolkit = new ProcessToolkit(
      { root: box.root, executables: { echo: '/bin/echo' }, allowShell },
      { enableShellTool },
    );
    expect(toolkit.listTools().map((d) => d.name)).toEqual(['process_run']);
    expectRunFailure(toolkit, await toolkit.invoke('process_shell', { command: 'echo hi' }), 'shell_disabled');
  });

  it('runs /bin/sh -c when both opt in, as a destructive tool needing approval', async () => {
    const toolkit = new ProcessToolkit(
      { root: box.root, executables: { echo: '/bin/echo' }, allowShell: true },
      { enableShellTool: true },
    );
    const shell = toolkit.listTools().find((d) => d.name === 'process_shell');
    expect(shell).toMatchObject({ sideEffect: 'destructive', approval: 'always' });
    expect(runData(await toolkit.invoke('process_shell', { command: 'echo $((1 + 2))' })).stdout).toBe('3\n');
    expect(toolkit.auditLog[0]).toMatchObject({
      operation: 'shell',
      executable: 'sh',
      args: ['-c', 'echo $((1 + 2))'],
      outcome: 'allowed',
    });
  });
});

describe('ProcessToolkit descriptors', () => {
  it('declares the allow list as an enum, honest side effects and no capabilities', async () => {
    const box = await makeProcessSandbox();
    try {
      const toolkit = new ProcessToolkit({
        root: box.root,
        executables: { echo: '/bin/echo', cat: '/bin/cat' },
        timeoutMs: 1000,
      });
      const [run] = toolkit.listTools();
      expect(run).toMatchObject({
        name: 'process_run',
        sideEffect: 'write',
        idempotency: 'non_idempotent',
        timeoutMs: 3000,
      });
      expect(run.inputSchema).toMatchObject({
        type: 'object',
        required: ['executable'],
        additionalProperties: false,
        properties: { executable: { type: 'string', enum: ['echo', 'cat'] } },
      });
      expect((run.inputSchema.properties as Record<string, unknown>).env).toBeUndefined();
      expect(toolkit.capabilities('process_run')).toEqual({
        invocationContext: false,
        idempotencyKey: false,
        heartbeat: false,
        compensation: false,
      });
    } finally {
      await box.cleanup();
    }
  });
});
