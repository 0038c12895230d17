import { JobManager } from '../../../lib/modules/execution/job-manager';
import { ExecutionToolProvider } from '../../../lib/modules/execution/execution-tool-provider';

/** Values whose description throws: a null-prototype object, a throwing `toString`, a throwing `message` getter. */
function hostileValues(): unknown[] {
  const throwingToString = {
    toString: () => {
      throw new Error('no');
    },
  };
  const throwingMessage = new Error('x');
  Object.defineProperty(throwingMessage, 'message', {
    get: () => {
      throw new Error('no');
    },
  });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  return [Object.create(null), throwingToString, throwingMessage, revoked.proxy, Symbol('s')];
}

describe('a job handler rejecting with a foreign value', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', onUnhandled));
  afterAll(() => process.off('unhandledRejection', onUnhandled));

  it.each(hostileValues().map((value, index) => [index, value]))(
    'ends the job failed and frees its slot (value %i)',
    async (_index, value) => {
      const manager = new JobManager({ maxRunningJobs: 1 });
      manager.register('bad', () => Promise.reject(value)); // eslint-disable-line @typescript-eslint/prefer-promise-reject-errors -- the point of the test
      manager.register('ok', () => 'done');
      const started = manager.start('bad', null);
      if (!started.ok) throw new Error('not started');
      await started.job.settled;
      const snapshot = started.job.snapshot();
      expect(snapshot.status).toBe('failed');
      expect(typeof snapshot.error).toBe('string');
      const next = manager.start('ok', null);
      expect(next.ok).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    },
  );

  it('answers job_run with a failure outcome', async () => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the point of the test
    const provider = new ExecutionToolProvider({ jobs: { bad: () => Promise.reject(Object.create(null)) } });
    const outcome = await provider.invoke('job_run', { kind: 'bad', input: null });
    expect(JSON.stringify(outcome)).toContain('failed');
    expect(outcome.data ?? outcome.error).toBeDefined();
  });
});
