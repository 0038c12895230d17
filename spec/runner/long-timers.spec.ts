import { LlmAgentRunner, ScriptedModelClient, toolFailure } from '../../lib';
import { ManualClock } from '../../lib/testing';
import { MAX_TIMER_DELAY_MS, startTimer } from '../../lib/runner/runner-clock';
import { FunctionProvider } from './support';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The library's manual clock, recording every delay it was asked for. */
class RecordingClock extends ManualClock {
  readonly delays: number[] = [];
  constructor() {
    super(1_000);
  }
  override setTimeout(callback: () => void, delayMs: number): unknown {
    this.delays.push(delayMs);
    return super.setTimeout(callback, delayMs);
  }
}

describe('timers above 2^31-1 ms', () => {
  it('startTimer waits a long delay in steps the platform accepts, and fires exactly at its end', async () => {
    const clock = new RecordingClock();
    let fired = 0;
    startTimer(clock, () => fired++, 3 * MAX_TIMER_DELAY_MS + 5);
    await clock.advance(3 * MAX_TIMER_DELAY_MS + 4);
    expect(fired).toBe(0);
    await clock.advance(1);
    expect(fired).toBe(1);
    expect(clock.delays).toEqual([MAX_TIMER_DELAY_MS, MAX_TIMER_DELAY_MS, MAX_TIMER_DELAY_MS, 5]);
  });

  it('a 30-day deadline fires after 30 days, never asking the clock for more than 2^31-1 ms', async () => {
    const clock = new RecordingClock();
    const provider = new FunctionProvider().add('month', () => new Promise(() => undefined), {
      timeoutMs: 30 * DAY_MS,
    });
    const pending = new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'month', arguments: {} },
      { clock },
    );
    let settled = false;
    void pending.then(() => (settled = true));
    await clock.advance(30 * DAY_MS - 1);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect((await pending).outcome.error?.code).toBe('timeout');
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(MAX_TIMER_DELAY_MS);
    expect(clock.delays.length).toBeLessThanOrEqual(3);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a 40-day backoff waits 40 days before the retry', async () => {
    const clock = new RecordingClock();
    let attempts = 0;
    const provider = new FunctionProvider().add(
      'slow_retry',
      () => (++attempts === 1 ? toolFailure({ code: 'unavailable', message: 'down' }) : 'up'),
      {
        idempotency: 'idempotent',
        retry: { maxAttempts: 2, initialDelayMs: 40 * DAY_MS, maxDelayMs: 40 * DAY_MS, jitter: 0 },
      },
    );
    const pending = new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'slow_retry', arguments: {} },
      { clock },
    );
    await clock.advance(40 * DAY_MS - 1);
    expect(attempts).toBe(1);
    await clock.advance(1);
    expect((await pending).outcome).toEqual({ ok: true, text: 'up' });
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(MAX_TIMER_DELAY_MS);
  });

  it('on the real timers: no TimeoutOverflowWarning and no re-arm loop for a 30-day deadline', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    const spy = jest.spyOn(global, 'setTimeout');
    try {
      const provider = new FunctionProvider().add(
        'quick',
        () => new Promise((resolve) => setTimeout(() => resolve('done'), 40)),
        { timeoutMs: 30 * DAY_MS },
      );
      const result = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall({
        id: 'c',
        name: 'quick',
        arguments: {},
      });
      expect(result.outcome).toEqual({ ok: true, text: 'done' });
      const delays = spy.mock.calls.map((call) => Number(call[1] ?? 0));
      expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_DELAY_MS);
      expect(delays.length).toBeLessThan(5);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      spy.mockRestore();
      process.off('warning', onWarning);
    }
  });
});
