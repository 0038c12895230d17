import { LlmAgentEvent, LlmAgentRunner, ScriptedModelClient, ToolInvocation, toolFailure } from '../../lib';
import { ManualClock } from '../../lib/testing';
import { FunctionProvider } from './support';

/** The library's manual clock, counting the timers it was asked for. */
class CountingClock extends ManualClock {
  created = 0;
  constructor() {
    super(1_000);
  }
  override setTimeout(callback: () => void, delayMs: number): unknown {
    this.created++;
    return super.setTimeout(callback, delayMs);
  }
}

/** Lets every pending promise reaction run (all microtasks drain before setImmediate fires). */
async function flush(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('runner with an injected clock', () => {
  it('backs off by the documented formula without real waiting (maxDelayMs caps it)', async () => {
    const clock = new CountingClock();
    const events: LlmAgentEvent[] = [];
    let calls = 0;
    const provider = new FunctionProvider().add(
      'flaky',
      () => (++calls < 4 ? toolFailure({ code: 'rate_limited', message: 'slow down' }) : 'ok'),
      {
        idempotency: 'idempotent',
        retry: { maxAttempts: 4, initialDelayMs: 1_000, backoffCoefficient: 3, maxDelayMs: 5_000, jitter: 0.5 },
      },
    );
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const pending = runner.invokeToolCall(
      { id: 'c', name: 'flaky', arguments: {} },
      { clock, random: () => 0.999, onEvent: (e) => events.push(e) },
    );
    await clock.advance(60_000);
    const record = await pending;
    expect(record.outcome).toEqual({ ok: true, text: 'ok' });
    const delays = events.filter((e) => e.type === 'tool_retry').map((e) => Math.round((e as any).delayMs));
    // 1000 * (1 - 0.5 + 0.999) = 1499; 3000 * 1.499 = 4497; min(5000, 9000) * 1.499 capped at 5000
    expect(delays).toEqual([1499, 4497, 5000]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a never-settling tool times out at the declared deadline; one timer per attempt, cleared', async () => {
    const clock = new CountingClock();
    const provider = new FunctionProvider().add('stuck', () => new Promise(() => undefined), { timeoutMs: 30_000 });
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const pending = runner.invokeToolCall({ id: 'c', name: 'stuck', arguments: {} }, { clock });
    await clock.advance(29_999);
    expect(clock.pendingTimers).toBe(1);
    let settled = false;
    void pending.then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    await clock.advance(1);
    const record = await pending;
    expect(record.outcome.error?.code).toBe('timeout');
    expect(clock.created).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a tool that answers in time leaves no timer behind; a synchronous one arms none', async () => {
    const clock = new CountingClock();
    const provider = new FunctionProvider()
      .add('async', async () => 'a', { timeoutMs: 30_000 })
      .add('sync', () => 's')
      .add('later', () => new Promise((resolve) => setImmediate(() => setImmediate(() => resolve('l')))), {
        timeoutMs: 30_000,
      });
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    expect((await runner.invokeToolCall({ id: 'a', name: 'async', arguments: {} }, { clock })).outcome.text).toBe('a');
    expect(clock.created).toBe(1);
    expect(clock.pendingTimers).toBe(0);
    await runner.invokeToolCall({ id: 's', name: 'sync', arguments: {} }, { clock });
    expect(clock.created).toBe(1);
    expect((await runner.invokeToolCall({ id: 'l', name: 'later', arguments: {} }, { clock })).outcome.text).toBe('l');
    expect(clock.created).toBe(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('heartbeats re-arm the single idle timer without ever passing the hard deadline', async () => {
    const clock = new CountingClock();
    let report!: () => void;
    const provider = new FunctionProvider({ heartbeat: true }).add(
      'job',
      (invocation) =>
        new Promise(() => {
          report = () => invocation.reportHeartbeat({ fraction: 0.5 });
        }),
      { heartbeat: { idleTimeoutMs: 10_000 }, timeoutMs: 25_000 },
    );
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const pending = runner.invokeToolCall({ id: 'c', name: 'job', arguments: {} }, { clock });
    for (let i = 0; i < 4; i++) {
      await clock.advance(6_000);
      report();
    }
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1_000);
    const record = await pending;
    expect(record.outcome.error?.code).toBe('timeout');
    expect(clock.now() - 1_000).toBe(25_000);
  });

  it('compensation runs under the tool deadline: a compensation that never settles fails at the deadline and the call is not retried', async () => {
    const clock = new CountingClock();
    const compensations: ToolInvocation[] = [];
    class HangingCompensation extends FunctionProvider {
      override compensate(invocation: ToolInvocation): Promise<{ ok: boolean }> {
        compensations.push(invocation);
        return new Promise(() => undefined);
      }
    }
    let calls = 0;
    const provider = new HangingCompensation({ compensation: true }).add(
      'charge',
      () => (
        ++calls,
        { ...toolFailure({ code: 'unavailable', message: 'half done' }), compensation: 'required' as const }
      ),
      { compensation: { enabled: true }, retry: { maxAttempts: 3, initialDelayMs: 1 }, timeoutMs: 10_000 },
    );
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const pending = runner.invokeToolCall({ id: 'c', name: 'charge', arguments: {} }, { clock });
    await clock.advance(0);
    expect(compensations).toHaveLength(1);
    expect(compensations[0].deadline.deadlineAtMs).toBe(clock.now() + 10_000);
    await clock.advance(10_000);
    const record = await pending;
    expect(record.outcome.compensation).toBe('failed');
    expect(record.attempts).toBe(1);
    expect(calls).toBe(1);
    expect(compensations[0].signal.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('an abort during the retry backoff ends the call as cancelled at once, keeping the last error, with no further attempt', async () => {
    const clock = new CountingClock();
    const controller = new AbortController();
    let calls = 0;
    const provider = new FunctionProvider().add(
      'flaky',
      () => (++calls, toolFailure({ code: 'unavailable', message: 'down' })),
      {
        idempotency: 'idempotent',
        retry: { maxAttempts: 5, initialDelayMs: 10_000, jitter: 0 },
      },
    );
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const pending = runner.invokeToolCall(
      { id: 'c', name: 'flaky', arguments: {} },
      { clock, signal: controller.signal },
    );
    await clock.advance(1_000);
    expect(calls).toBe(1);
    controller.abort();
    const record = await pending;
    expect(record.outcome.error).toMatchObject({
      code: 'cancelled',
      category: 'cancelled',
      retryable: false,
      details: { lastError: { code: 'unavailable' } },
    });
    expect(record.attempts).toBe(1);
    await clock.advance(60_000);
    expect(calls).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });
});
