import * as root from '../../lib';
import * as testing from '../../lib/testing';
import { ManualClock } from '../../lib/testing';

describe('ManualClock', () => {
  it('is exported by wuwe/testing only; the scripted model by the root only', () => {
    expect(Object.keys(testing)).toEqual(['ManualClock']);
    expect('ManualClock' in root).toBe(false);
    expect(typeof root.ScriptedModelClient).toBe('function');
  });

  it('stands still until advanced, then fires due timers in due order and skips cancelled ones', async () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`late@${clock.now()}`), 300);
    clock.setTimeout(() => fired.push(`early@${clock.now()}`), 100);
    const cancelled = clock.setTimeout(() => fired.push('cancelled'), 200);
    clock.clearTimeout(cancelled);
    expect(clock.now()).toBe(1_000);
    expect(clock.pendingTimers).toBe(2);
    await clock.advance(150);
    expect(fired).toEqual(['early@1100']);
    expect(clock.now()).toBe(1_150);
    await clock.advance(1_000);
    expect(fired).toEqual(['early@1100', 'late@1300']);
    expect(clock.now()).toBe(2_150);
    expect(clock.pendingTimers).toBe(0);
  });

  it('lets the promise reactions a timer starts run before the next timer fires', async () => {
    const clock = new ManualClock();
    const order: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve().then(() => order.push('reaction of first'));
      order.push('first');
    }, 10);
    clock.setTimeout(() => order.push('second'), 20);
    await clock.advance(20);
    expect(order).toEqual(['first', 'reaction of first', 'second']);
  });
});
