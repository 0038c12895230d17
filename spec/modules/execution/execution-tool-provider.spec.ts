import { ExecutionModuleError } from '../../../lib/modules/execution/execution-module-error';
import { ExecutionToolProvider } from '../../../lib/modules/execution/execution-tool-provider';
import { JobContext } from '../../../lib/modules/execution/job-types';
import { JsonObject, JsonValue } from '../../../lib/outcome/json-value';
import { compileOutputValidator } from '../../../lib/validation/schema-validator';
import { invocationFor } from '../memory/invocation-fixture';

/** A promise with its resolve and reject exposed. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves when the signal aborts, rejecting with its reason, like a cooperative handler. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
  );
}

const call = (provider: ExecutionToolProvider, tool: string, args: JsonObject, idempotencyKey?: string) =>
  provider.invokeTool(invocationFor(provider, tool, args, { idempotencyKey }));

const jobIdOf = (outcome: { data?: JsonValue }) => (outcome.data as { jobId: string }).jobId;

describe('ExecutionToolProvider', () => {
  let provider: ExecutionToolProvider;
  afterEach(() => provider?.jobs.cancelAll());

  it('forwards a job_run handler progress as heartbeats of the call and answers its result', async () => {
    provider = new ExecutionToolProvider({
      jobs: {
        count: async (input: JsonValue, { reportProgress }: JobContext) => {
          const to = (input as { to: number }).to;
          for (let i = 1; i <= to; i++) reportProgress({ fraction: i / to, message: `step ${i}` });
          return { counted: to };
        },
      },
    });
    const invocation = invocationFor(provider, 'job_run', { kind: 'count', input: { to: 4 } });
    const outcome = await provider.invokeTool(invocation);
    expect(invocation.heartbeats).toEqual([
      { fraction: 0.25, message: 'step 1' },
      { fraction: 0.5, message: 'step 2' },
      { fraction: 0.75, message: 'step 3' },
      { fraction: 1, message: 'step 4' },
    ]);
    expect(outcome.data).toMatchObject({
      kind: 'count',
      status: 'succeeded',
      heartbeats: 4,
      result: { counted: 4 },
      progress: { fraction: 1 },
    });
    expect(compileOutputValidator(invocation.descriptor.outputSchema!)(outcome.data)).toEqual([]);
  });

  it('runs job_run in the legacy invoke form: progress is kept on the job, the signal still cancels', async () => {
    provider = new ExecutionToolProvider({
      jobs: { tick: (_input, { reportProgress }) => reportProgress({ fraction: 1 }) },
    });
    const outcome = await provider.invoke('job_run', { kind: 'tick', input: null });
    expect(outcome.data).toMatchObject({ status: 'succeeded', heartbeats: 1, progress: { fraction: 1 }, result: null });
    const controller = new AbortController();
    controller.abort();
    expect((await provider.invoke('job_run', { kind: 'tick', input: null }, controller.signal)).error?.code).toBe(
      'cancelled',
    );
  });

  it('declares capabilities per tool: the idempotency key for job_start, heartbeat for job_run, nothing else', () => {
    provider = new ExecutionToolProvider({ jobs: { noop: () => null } });
    const none = { invocationContext: false, idempotencyKey: false, heartbeat: false, compensation: false };
    expect(provider.capabilities('job_start')).toEqual({ ...none, idempotencyKey: true });
    expect(provider.capabilities('job_run')).toEqual({ ...none, heartbeat: true });
    for (const tool of ['job_status', 'job_result', 'job_cancel', 'other'])
      expect(provider.capabilities(tool)).toEqual(none);
    const run = provider.listTools().find((tool) => tool.name === 'job_run')!;
    expect(run.heartbeat).toEqual({ idleTimeoutMs: 30_000 });
    for (const tool of provider.listTools().filter((candidate) => candidate.name !== 'job_run'))
      expect(tool.heartbeat).toBeUndefined();
  });

  it('describes side effects honestly: start and run take the strongest kind, status and result read', () => {
    provider = new ExecutionToolProvider({ jobs: { report: { handler: () => null, sideEffect: 'read' } } });
    const sideEffects = () =>
      Object.fromEntries(provider.listTools().map((tool) => [tool.name, [tool.sideEffect, tool.idempotency]]));
    expect(sideEffects()).toEqual({
      job_start: ['read', 'idempotent_with_key'],
      job_status: ['read', 'idempotent'],
      job_result: ['read', 'idempotent'],
      job_cancel: ['write', 'idempotent'],
      job_run: ['read', 'non_idempotent'],
    });
    provider.register('purge', { handler: () => null, sideEffect: 'destructive', description: 'Deletes old rows.' });
    expect(sideEffects().job_start[0]).toBe('destructive');
    const start = provider.listTools()[0];
    expect(start.description).toContain('purge: Deletes old rows.');
    expect(start.inputSchema).toMatchObject({
      properties: { kind: { enum: ['report', 'purge'] } },
      additionalProperties: false,
    });
  });

  it('moves a background job from running (with progress) to succeeded, and job_result waits for it', async () => {
    const gate = deferred<void>();
    provider = new ExecutionToolProvider({
      jobs: {
        build: async (_input, { reportProgress }) => {
          reportProgress({ fraction: 0.1, message: 'compiling' });
          await gate.promise;
          return 'built';
        },
      },
    });
    const started = await call(provider, 'job_start', { kind: 'build', input: null });
    expect(started.data).toMatchObject({ kind: 'build', status: 'running', reused: false });
    const jobId = jobIdOf(started);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await call(provider, 'job_status', { jobId })).data).toMatchObject({
      status: 'running',
      heartbeats: 1,
      progress: { message: 'compiling' },
    });
    expect((await call(provider, 'job_result', { jobId })).data).toMatchObject({ status: 'running' });
    expect((await call(provider, 'job_result', { jobId })).data).not.toHaveProperty('result');

    const waiting = call(provider, 'job_result', { jobId, waitMs: 5000 });
    gate.resolve();
    const finished = await waiting;
    expect(finished.data).toMatchObject({ jobId, status: 'succeeded', result: 'built' });
    expect(finished.data).toHaveProperty('finishedAt');
    expect(compileOutputValidator(provider.listTools()[2].outputSchema!)(finished.data)).toEqual([]);
  });

  it('reports a throwing handler as failed with its message', async () => {
    provider = new ExecutionToolProvider({ jobs: { boom: () => Promise.reject(new Error('disk full')) } });
    const jobId = jobIdOf(await call(provider, 'job_start', { kind: 'boom', input: {} }));
    expect((await call(provider, 'job_result', { jobId, waitMs: 1000 })).data).toMatchObject({
      status: 'failed',
      error: 'disk full',
    });
    const run = await call(provider, 'job_run', { kind: 'boom', input: {} });
    expect(run.error).toMatchObject({ code: 'job_failed', category: 'internal', retryable: false });
    expect(run.error?.message).toContain('disk full');
  });

  it('job_cancel aborts the handler signal and the job ends cancelled', async () => {
    let seen: AbortSignal | undefined;
    provider = new ExecutionToolProvider({
      jobs: {
        wait: (_input, { signal }) => {
          seen = signal;
          return untilAborted(signal);
        },
      },
    });
    const jobId = jobIdOf(await call(provider, 'job_start', { kind: 'wait', input: 1 }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen?.aborted).toBe(false);
    const cancelled = await call(provider, 'job_cancel', { jobId });
    expect(seen?.aborted).toBe(true);
    expect(cancelled.data).toMatchObject({ jobId, status: 'cancelled', error: 'Cancelled by job_cancel.' });
    expect((await call(provider, 'job_cancel', { jobId })).data).toMatchObject({ status: 'cancelled' });
  });

  it('answers cancelling for a handler that ignores the signal, until it settles', async () => {
    const gate = deferred<void>();
    provider = new ExecutionToolProvider({
      cancelGraceMs: 20,
      jobs: { stubborn: () => gate.promise.then(() => 'done anyway') },
    });
    const jobId = jobIdOf(await call(provider, 'job_start', { kind: 'stubborn', input: null }));
    expect((await call(provider, 'job_cancel', { jobId })).data).toMatchObject({ status: 'cancelling' });
    gate.resolve();
    expect((await call(provider, 'job_result', { jobId, waitMs: 1000 })).data).toMatchObject({
      status: 'succeeded',
      result: 'done anyway',
    });
  });

  it('aborts the job when the job_run call is aborted (deadline or heartbeat silence)', async () => {
    let seen: AbortSignal | undefined;
    provider = new ExecutionToolProvider({
      jobs: {
        slow: (_input, { signal }) => {
          seen = signal;
          return untilAborted(signal);
        },
      },
    });
    const controller = new AbortController();
    const running = provider.invokeTool(
      invocationFor(provider, 'job_run', { kind: 'slow', input: null }, { controller }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const outcome = await running;
    expect(seen?.aborted).toBe(true);
    expect(outcome.error).toMatchObject({ code: 'cancelled', category: 'cancelled' });
    expect(outcome.error?.details).toMatchObject({ status: 'cancelled' });
  });

  it('answers an aborted job_run within the cancel grace even when the handler ignores the signal', async () => {
    const gate = deferred<void>();
    provider = new ExecutionToolProvider({
      cancelGraceMs: 50,
      jobs: { stubborn: () => gate.promise.then(() => 'late') },
    });
    const controller = new AbortController();
    const running = provider.invokeTool(
      invocationFor(provider, 'job_run', { kind: 'stubborn', input: null }, { controller }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const answer = await Promise.race([
      running,
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000)),
    ]);
    gate.resolve();
    expect(answer).toMatchObject({ ok: false, error: { code: 'cancelled', details: { status: 'cancelling' } } });
  });

  it.each(['job_status', 'job_result', 'job_cancel'])(
    'answers an unknown job id to %s with a not_found failure',
    async (tool) => {
      provider = new ExecutionToolProvider();
      const outcome = await call(provider, tool, { jobId: 'job_missing' });
      expect(outcome).toMatchObject({
        ok: false,
        error: { code: 'not_found', category: 'not_found', retryable: false },
      });
      expect(outcome.error?.message).toContain('job_missing');
    },
  );

  it('returns the same job for a repeated job_start with the same idempotency key', async () => {
    let starts = 0;
    provider = new ExecutionToolProvider({ jobs: { once: () => ++starts } });
    const first = await call(provider, 'job_start', { kind: 'once', input: null }, 'run-1:call-1');
    const retry = await call(provider, 'job_start', { kind: 'once', input: null }, 'run-1:call-1');
    expect(jobIdOf(retry)).toBe(jobIdOf(first));
    expect(retry.data).toMatchObject({ reused: true });
    await call(provider, 'job_result', { jobId: jobIdOf(first), waitMs: 1000 });
    expect(starts).toBe(1);
  });

  it('refuses unknown kinds, input against the kind schema, bad arguments, and too many jobs', async () => {
    const gate = deferred<void>();
    provider = new ExecutionToolProvider({
      maxRunningJobs: 1,
      jobs: {
        resize: {
          handler: () => gate.promise.then(() => null),
          inputSchema: { type: 'object', properties: { width: { type: 'integer' } }, required: ['width'] },
        },
      },
    });
    expect((await call(provider, 'job_start', { kind: 'nope', input: null })).error).toMatchObject({
      code: 'invalid_arguments',
    });
    const badInput = await call(provider, 'job_start', { kind: 'resize', input: { width: 'wide' } });
    expect(badInput.error).toMatchObject({
      code: 'invalid_arguments',
      details: { issues: [{ pointer: '/input/width' }] },
    });
    expect((await call(provider, 'job_start', { kind: 'resize' })).error?.code).toBe('invalid_arguments');
    expect((await call(provider, 'job_result', { jobId: 'x', waitMs: 999_999 })).error?.code).toBe('invalid_arguments');
    expect((await call(provider, 'job_start', { kind: 'resize', input: { width: 3 } })).ok).toBe(true);
    expect((await call(provider, 'job_start', { kind: 'resize', input: { width: 4 } })).error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
    });
    gate.resolve();
  });

  it('throws typed errors for bad configuration', () => {
    provider = new ExecutionToolProvider();
    expect(() => new ExecutionToolProvider({ maxRunningJobs: 0 })).toThrow(ExecutionModuleError);
    expect(() => new ExecutionToolProvider({ heartbeatIdleTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_execution_options' }),
    );
    expect(() => provider.register('bad kind!', () => null)).toThrow(
      expect.objectContaining({ code: 'invalid_job_kind' }),
    );
    expect(() =>
      provider.register('k', { handler: () => null, inputSchema: { type: 'object', bogusKeyword: 1 } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_job_kind' }));
    provider.register('k', () => null);
    expect(() => provider.register('k', () => null)).toThrow(expect.objectContaining({ code: 'duplicate_job_kind' }));
  });
});
