import { waitForSettle } from '../../../lib/modules/execution/wait-for-settle';

describe('waitForSettle', () => {
  it('waits a timeout above 2^31-1 ms as such: it does not end after 1 ms with a TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    const controller = new AbortController();
    let ended = false;
    const waiting = waitForSettle(new Promise<void>(() => undefined), 2 ** 31 + 1000, controller.signal).then(
      () => (ended = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    process.off('warning', onWarning);
    expect(ended).toBe(false);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    controller.abort();
    await waiting;
    expect(ended).toBe(true);
  });

  it('ends when the work settles, when the timeout passes, or at once for a timeout of 0', async () => {
    await waitForSettle(Promise.resolve(), 60_000);
    const started = Date.now();
    await waitForSettle(new Promise<void>(() => undefined), 30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    await waitForSettle(new Promise<void>(() => undefined), 0);
  });
});
