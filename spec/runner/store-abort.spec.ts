import { LlmAgentError, LlmAgentRunner, MemoryRunStore, RunStore, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

/**
 * Settles to 'pending' when `promise` has not settled within `ms`: a run that waits forever fails the test instead of
 * hanging it.
 */
function within<T>(promise: Promise<T>, ms = 3000): Promise<{ value?: T; error?: unknown } | 'pending'> {
  const settled = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return Promise.race([settled, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms).unref())]);
}

const WRITES = new Set([
  'createRun',
  'appendMessages',
  'saveMessages',
  'setStatus',
  'recordCallStarted',
  'recordAttempt',
  'admitOutcome',
  'recordProjection',
  'requestApproval',
  'decideApproval',
]);
const LEASES = new Set(['acquireLease', 'renewLease', 'releaseLease']);

/**
 * A real memory store behind a proxy: once `hang` is set, every call of a method it names returns a promise that
 * never settles (a store that stopped answering), and `hung` counts them.
 */
function hangingStore(): { store: RunStore; hang: Set<string>; hung: string[] } {
  const real = new MemoryRunStore();
  const hang = new Set<string>();
  const hung: string[] = [];
  const store = new Proxy(real, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        if (hang.has(property)) {
          hung.push(property);
          return new Promise(() => undefined);
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, hang, hung };
}

describe('an abort ends a durable run promptly even when its store stops answering', () => {
  it.each([
    ['the Tool message write', new Set(['appendMessages'])],
    ['the admission of the outcome', new Set(['admitOutcome'])],
    ['every write and every lease operation', new Set([...WRITES, ...LEASES])],
  ])(
    '%s hangs, then the run aborts: complete() rejects with store_write_abandoned within the grace',
    async (_what, methods) => {
      const { store, hang, hung } = hangingStore();
      const controller = new AbortController();
      const provider = new FunctionProvider().add('work', () => {
        for (const method of methods) hang.add(method);
        setTimeout(() => controller.abort(new Error('operator stop')), 20);
        return 'worked';
      });
      const model = new ScriptedModelClient([
        { toolCalls: [{ id: 'c1', name: 'work', arguments: {} }] },
        { text: 'done' },
      ]);
      const started = Date.now();
      const outcome = await within(
        new LlmAgentRunner(model, provider).complete('go', {
          store,
          runId: 'hung',
          signal: controller.signal,
          abortedWriteGraceMs: 100,
        }),
      );
      expect(outcome).not.toBe('pending');
      if (outcome === 'pending') return;
      expect(LlmAgentError.isInstance(outcome.error)).toBe(true);
      expect(outcome.error).toMatchObject({
        code: 'store_write_abandoned',
        cause: expect.objectContaining({ message: 'operator stop' }),
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(hung.length).toBeGreaterThan(0);
      expect(provider.calls).toHaveLength(1);
    },
  );

  it('waits the default grace (1000 ms) when none is given', async () => {
    const { store, hang } = hangingStore();
    const controller = new AbortController();
    const provider = new FunctionProvider().add('work', () => {
      hang.add('appendMessages');
      setTimeout(() => controller.abort(), 10);
      return 'worked';
    });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'work', arguments: {} }] },
      { text: 'done' },
    ]);
    const started = Date.now();
    const outcome = await within(
      new LlmAgentRunner(model, provider).complete('go', { store, runId: 'default-grace', signal: controller.signal }),
    );
    expect(outcome).not.toBe('pending');
    if (outcome === 'pending') return;
    expect(outcome.error).toMatchObject({ code: 'store_write_abandoned' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a healthy store still records how an aborted run ended (cancelled) and releases the lease', async () => {
    const store = new MemoryRunStore();
    const controller = new AbortController();
    const model = new ScriptedModelClient([
      () => {
        controller.abort();
        return { toolCalls: [{ id: 'c1', name: 'work', arguments: {} }] };
      },
    ]);
    const result = await new LlmAgentRunner(
      model,
      new FunctionProvider().add('work', () => 'worked'),
    ).complete('go', {
      store,
      runId: 'healthy',
      signal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    const record = (await store.loadRun('healthy'))!;
    expect(record.status).toBe('cancelled');
    expect(record.lease).toBeUndefined();
  });

  it('refuses a grace that is not a finite number >= 0', async () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([{ text: 'x' }]), new FunctionProvider());
    for (const abortedWriteGraceMs of [-1, Number.NaN, Infinity])
      await expect(runner.complete('go', { abortedWriteGraceMs })).rejects.toMatchObject({
        code: 'invalid_run_options',
      });
  });
});
