import { LlmAgentError, LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

const retrying = {
  idempotency: 'idempotent' as const,
  timeoutMs: 200,
  retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
};

describe('a retry after a timeout whose attempt ignores its signal', () => {
  it('starts only once the abandoned attempt has settled: attempts of one call never overlap', async () => {
    const spans: { attempt: number; start: number; end?: number }[] = [];
    let finishFirst!: () => void;
    const provider = new FunctionProvider().add(
      'deaf',
      (invocation) => {
        const span: { attempt: number; start: number; end?: number } = {
          attempt: invocation.attempt,
          start: Date.now(),
        };
        spans.push(span);
        const done = (): string => ((span.end = Date.now()), `attempt ${invocation.attempt}`);
        // Attempt 1 ignores its signal and finishes 100 ms after its deadline passed.
        if (invocation.attempt === 1)
          return new Promise((resolve) => (finishFirst = () => setTimeout(() => resolve(done()), 100)));
        return done();
      },
      retrying,
    );
    const result = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'deaf', arguments: {} },
      { onEvent: (event) => void (event.type === 'tool_timeout' && finishFirst()) },
    );
    expect(result).toMatchObject({ outcome: { ok: true, text: 'attempt 2' }, attempts: 2 });
    expect(spans.map((span) => span.attempt)).toEqual([1, 2]);
    expect(spans[1].start).toBeGreaterThanOrEqual(spans[0].end!);
  });

  it('waits too for an attempt that blocked past its deadline before returning its promise', async () => {
    const spans: { attempt: number; start: number; end?: number }[] = [];
    const provider = new FunctionProvider().add(
      'blocker',
      (invocation) => {
        const span: { attempt: number; start: number; end?: number } = {
          attempt: invocation.attempt,
          start: Date.now(),
        };
        spans.push(span);
        const done = (): string => ((span.end = Date.now()), `attempt ${invocation.attempt}`);
        if (invocation.attempt > 1) return done();
        while (Date.now() < span.start + 250);
        return new Promise((resolve) => setTimeout(() => resolve(done()), 100));
      },
      retrying,
    );
    const result = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall({
      id: 'c',
      name: 'blocker',
      arguments: {},
    });
    expect(result).toMatchObject({ outcome: { ok: true, text: 'attempt 2' }, attempts: 2 });
    expect(spans[0].end).toBeDefined();
    expect(spans[1].start).toBeGreaterThanOrEqual(spans[0].end!);
  });

  it('is not made when the abandoned attempt still runs after abandonedAttemptGraceMs', async () => {
    const provider = new FunctionProvider().add('stuck', () => new Promise(() => undefined), retrying);
    const result = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'stuck', arguments: {} },
      { abandonedAttemptGraceMs: 30 },
    );
    expect(result.attempts).toBe(1);
    expect(result.outcome.error).toMatchObject({
      code: 'timeout',
      details: { abandonedAttempt: 'running', graceMs: 30 },
    });
    expect(provider.calls).toHaveLength(1);
  });

  it('abandonedAttemptGraceMs must be a finite number >= 0', async () => {
    const provider = new FunctionProvider().add('stuck', () => 'ok', retrying);
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    await expect(
      runner.invokeToolCall({ id: 'c', name: 'stuck', arguments: {} }, { abandonedAttemptGraceMs: -1 }),
    ).rejects.toThrow(LlmAgentError);
  });
});
