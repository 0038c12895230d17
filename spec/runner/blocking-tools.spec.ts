import { LlmAgentEvent, LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { RunnerClock } from '../../lib/runner';
import { FunctionProvider } from './support';

/** A clock a tool can move forward while it blocks. */
class SteppedClock implements RunnerClock {
  nowMs = 1_000;
  readonly handles: unknown[] = [];
  now(): number {
    return this.nowMs;
  }
  setTimeout(callback: () => void, delayMs: number): unknown {
    const handle = setTimeout(callback, 1e6 + delayMs * 0);
    this.handles.push(handle);
    return handle;
  }
  clearTimeout(handle: unknown): void {
    clearTimeout(handle as NodeJS.Timeout);
  }
}

describe('a synchronous tool that blocks past its deadline', () => {
  it('is a timeout and its result is discarded (injected clock)', async () => {
    const clock = new SteppedClock();
    const events: LlmAgentEvent[] = [];
    const provider = new FunctionProvider().add(
      'block',
      () => {
        clock.nowMs += 5_000;
        return 'finished late';
      },
      { timeoutMs: 1_000 },
    );
    const result = await new LlmAgentRunner(new ScriptedModelClient([{ text: 'unused' }]), provider).invokeToolCall(
      { id: 'c', name: 'block', arguments: {} },
      { clock, onEvent: (event) => events.push(event) },
    );
    expect(result.outcome.error).toMatchObject({ code: 'timeout' });
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['tool_timeout', 'tool_late_result_discarded']),
    );
    expect(events.find((event) => event.type === 'tool_late_result_discarded')).toMatchObject({
      outcome: { ok: true, text: 'finished late' },
    });
    clock.handles.forEach((handle) => clock.clearTimeout(handle));
  });

  it('is a timeout on the system clock too, and so is a tool that blocks before returning its promise', async () => {
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    const provider = new FunctionProvider()
      .add('spin', () => (busy(80), 'spun'), { timeoutMs: 20 })
      .add('spin_then_async', () => (busy(80), Promise.resolve('spun')), { timeoutMs: 20 });
    const runner = new LlmAgentRunner(new ScriptedModelClient([{ text: 'unused' }]), provider);
    expect((await runner.invokeToolCall({ id: 'a', name: 'spin', arguments: {} })).outcome.error).toMatchObject({
      code: 'timeout',
    });
    expect(
      (await runner.invokeToolCall({ id: 'b', name: 'spin_then_async', arguments: {} })).outcome.error,
    ).toMatchObject({ code: 'timeout' });
  });
});
