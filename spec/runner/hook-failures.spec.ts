import { LlmAgentEvent, LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import { ToolProviderCapabilities } from '../../lib/tools';
import { FunctionProvider } from './support';

/** A model that calls `ok` and `other` in one turn, then answers. */
function twoCalls() {
  return new ScriptedModelClient([
    {
      toolCalls: [
        { id: 'a', name: 'ok' },
        { id: 'b', name: 'other' },
      ],
    },
    { text: 'done' },
  ]);
}

function provider() {
  return new FunctionProvider().add('ok', () => 'fine').add('other', () => 'also fine', { sideEffect: 'destructive' });
}

function errorOf(content: string) {
  const parsed = JSON.parse(content);
  expect(parsed.ok).toBe(false);
  return parsed.error as { code: string; category: string; message: string; retryable: boolean };
}

function hookEvents(events: LlmAgentEvent[]) {
  return events
    .filter((event) => event.type === 'hook_failed')
    .map((event) => ({ hook: (event as any).hook, callId: (event as any).callId, message: (event as any).message }));
}

describe('a host hook that throws or rejects never crashes the run nor leaves a call without a result', () => {
  const throwing = (): Promise<boolean> => {
    throw new Error('policy service down');
  };
  const rejecting = (): Promise<boolean> => Promise.reject(new Error('policy service down'));
  it.each([
    ['throws', throwing],
    ['rejects', rejecting],
  ])(
    'allowToolCall %s: that call is refused (fail closed), the other call of the turn runs, the run goes on',
    async (_how, hook) => {
      const tools = provider();
      const events: LlmAgentEvent[] = [];
      const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
        allowToolCall: (request) => (request.toolName === 'ok' ? hook() : true),
        approvalHandler: () => ({ approved: true }),
        onEvent: (event) => events.push(event),
      });
      expect(result.stopReason).toBe('end_turn');
      expect(result.text).toBe('done');
      expect(errorOf(result.toolCalls[0].content)).toMatchObject({ code: 'permission_denied', category: 'permission' });
      expect(result.toolCalls[1].outcome).toEqual({ ok: true, text: 'also fine' });
      expect(tools.calls.map((call) => call.toolName)).toEqual(['other']);
      expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
      expect(hookEvents(events)).toEqual([{ hook: 'allowToolCall', callId: 'a', message: 'policy service down' }]);
    },
  );

  it('approvalHandler rejects: the call is denied (fail closed), nothing runs, a durable run stores the denial', async () => {
    const tools = provider();
    const store = new MemoryRunStore();
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
      store,
      runId: 'approval-crash',
      approvalHandler: () => Promise.reject(new Error('pager unreachable')),
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    expect(errorOf(result.toolCalls[1].content).code).toBe('approval_denied');
    expect(tools.calls.map((call) => call.toolName)).toEqual(['ok']);
    expect(hookEvents(events)).toEqual([{ hook: 'approvalHandler', callId: 'b', message: 'pager unreachable' }]);
    const record = (await store.loadRun('approval-crash'))!;
    expect(record.status).toBe('completed');
    expect(record.approvals).toEqual([expect.objectContaining({ callId: 'b', state: 'denied' })]);
  });

  it('approvalHandler that answers without a decision (undefined): denied, nothing runs, the run goes on', async () => {
    const tools = provider();
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
      approvalHandler: (() => undefined) as never,
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    expect(errorOf(result.toolCalls[1].content).code).toBe('approval_denied');
    expect(tools.calls.map((call) => call.toolName)).toEqual(['ok']);
    expect(hookEvents(events).map((event) => event.hook)).toEqual(['approvalHandler']);
  });

  it('prepareToolResult throws: the call gets a tool_error that says it ran, the raw outcome is withheld, the run goes on', async () => {
    const tools = new FunctionProvider().add('ok', () => 'secret-token-123').add('other', () => 'also fine');
    const seen: unknown[] = [];
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
      prepareToolResult: (outcome, request) => {
        if (request.toolName === 'ok') throw new Error('redactor crashed');
        return outcome;
      },
      onToolResult: (outcome) => void seen.push(outcome),
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    const error = errorOf(result.toolCalls[0].content);
    expect(error).toMatchObject({ code: 'tool_error', category: 'internal', retryable: false });
    expect(error.message).toContain('ran');
    expect(result.toolCalls[0].content).not.toContain('secret-token-123');
    expect(result.toolCalls[0].attempts).toBe(1);
    expect(result.toolCalls[1].outcome).toEqual({ ok: true, text: 'also fine' });
    expect(seen).toHaveLength(2);
    expect(hookEvents(events)).toEqual([{ hook: 'prepareToolResult', callId: 'a', message: 'redactor crashed' }]);
  });

  it('prepareToolResult that returns no outcome (a forgotten return): a tool_error, not a crash of the run', async () => {
    const tools = new FunctionProvider().add('ok', () => 'fine').add('other', () => 'also fine');
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
      prepareToolResult: ((outcome: unknown, request: { toolName: string }) =>
        request.toolName === 'ok' ? undefined : outcome) as never,
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    expect(errorOf(result.toolCalls[0].content).code).toBe('tool_error');
    expect(result.toolCalls[1].content).toBe('also fine');
    expect(hookEvents(events).map((event) => event.hook)).toEqual(['prepareToolResult']);
  });

  it('onToolResult rejects after admission: the admitted outcome still reaches the model and the record, the run completes', async () => {
    const tools = new FunctionProvider().add('ok', () => 'fine').add('other', () => 'also fine');
    const store = new MemoryRunStore();
    const events: LlmAgentEvent[] = [];
    const model = twoCalls();
    const result = await new LlmAgentRunner(model, tools).complete('go', {
      store,
      runId: 'observer-crash',
      onToolResult: (_outcome, request) =>
        request.toolName === 'ok' ? Promise.reject(new Error('analytics down')) : undefined,
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls.map((call) => call.content)).toEqual(['fine', 'also fine']);
    expect(model.requests[1].messages.filter((m) => m.role === 'tool').map((m) => (m as any).content)).toEqual([
      'fine',
      'also fine',
    ]);
    const record = (await store.loadRun('observer-crash'))!;
    expect(record.status).toBe('completed');
    expect(record.toolCalls.map((call) => call.status)).toEqual(['admitted', 'admitted']);
    expect(hookEvents(events)).toEqual([{ hook: 'onToolResult', callId: 'a', message: 'analytics down' }]);
  });

  it('onToolOutputProjection throws: reported, the projected message is sent unchanged', async () => {
    const events: LlmAgentEvent[] = [];
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider()).invokeToolCall(
      { id: 'c', name: 'ok', arguments: {} },
      {
        onToolOutputProjection: () => {
          throw new Error('metrics down');
        },
        onEvent: (event) => events.push(event),
      },
    );
    expect(record.content).toBe('fine');
    expect(hookEvents(events)).toEqual([{ hook: 'onToolOutputProjection', callId: 'c', message: 'metrics down' }]);
  });

  it('a provider whose capabilities() throws: that call is refused before dispatch, the turn and the run go on', async () => {
    class BrokenCapabilities extends FunctionProvider {
      override capabilities(name?: string): ToolProviderCapabilities {
        if (name === 'ok') throw new Error('registry offline');
        return super.capabilities();
      }
    }
    const tools = new BrokenCapabilities().add('ok', () => 'fine').add('other', () => 'also fine');
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(twoCalls(), tools).complete('go', {
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('end_turn');
    expect(errorOf(result.toolCalls[0].content).code).toBe('capability_mismatch');
    expect(result.toolCalls[1].outcome).toEqual({ ok: true, text: 'also fine' });
    expect(tools.calls.map((call) => call.toolName)).toEqual(['other']);
    expect(hookEvents(events)).toEqual([{ hook: 'capabilities', callId: 'a', message: 'registry offline' }]);
  });
});

describe('abort while a host hook is pending', () => {
  it('an approval handler that waits for a human does not hold an aborted run; the call is cancelled and never runs', async () => {
    const tools = new FunctionProvider().add('rm', () => 'deleted', { sideEffect: 'destructive' });
    const controller = new AbortController();
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'rm' }] }, { text: 'never asked' }]);
    let decide!: (approved: boolean) => void;
    const pending = new LlmAgentRunner(model, tools).complete('go', {
      signal: controller.signal,
      approvalHandler: () => new Promise((resolve) => (decide = (approved) => resolve({ approved }))),
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const settledInTime = await Promise.race([
      pending.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 500)),
    ]);
    expect(settledInTime).toBe(true);
    const result = await pending;
    expect(result.stopReason).toBe('aborted');
    expect(errorOf(result.toolCalls[0].content).code).toBe('cancelled');
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    decide(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tools.calls).toHaveLength(0);
  });

  it('an abort right after approval, before dispatch: the approved call is cancelled and never runs; a durable run admits the cancellation', async () => {
    const tools = new FunctionProvider().add('rm', () => 'deleted', { sideEffect: 'destructive' });
    const controller = new AbortController();
    const store = new MemoryRunStore();
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'rm' }] }, { text: 'never asked' }]);
    const result = await new LlmAgentRunner(model, tools).complete('go', {
      store,
      runId: 'abort-after-approval',
      signal: controller.signal,
      approvalHandler: () => {
        controller.abort();
        return { approved: true };
      },
    });
    expect(result.stopReason).toBe('aborted');
    expect(errorOf(result.toolCalls[0].content).code).toBe('cancelled');
    expect(tools.calls).toHaveLength(0);
    const record = (await store.loadRun('abort-after-approval'))!;
    expect(record.status).toBe('cancelled');
    expect(record.toolCalls).toEqual([
      expect.objectContaining({ callId: 'c', status: 'admitted', outcome: expect.objectContaining({ ok: false }) }),
    ]);
    expect(record.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('an allowToolCall that never answers does not hold an aborted run', async () => {
    const tools = new FunctionProvider().add('t', () => 'x');
    const controller = new AbortController();
    const pending = new LlmAgentRunner(new ScriptedModelClient([]), tools).invokeToolCall(
      { id: 'c', name: 't', arguments: {} },
      { signal: controller.signal, allowToolCall: () => new Promise(() => undefined) },
    );
    setTimeout(() => controller.abort(), 10);
    const record = await pending;
    expect(errorOf(record.content).code).toBe('cancelled');
    expect(tools.calls).toHaveLength(0);
  });
});

describe('async observers that reject', () => {
  it('an async onEvent or onToolOutputProjection that rejects neither disturbs the run nor leaves an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const events: LlmAgentEvent[] = [];
      // What a caller without a no-misused-promises lint rule writes: async functions as observers.
      const onEvent = async (event: LlmAgentEvent): Promise<void> => {
        events.push(event);
        await Promise.resolve();
        throw new Error('log shipper down');
      };
      const onToolOutputProjection = async (): Promise<void> => {
        await Promise.resolve();
        throw new Error('metrics down');
      };
      const result = await new LlmAgentRunner(twoCalls(), provider()).complete('go', {
        approvalHandler: () => ({ approved: true }),
        onEvent: onEvent as unknown as (event: LlmAgentEvent) => void,
        onToolOutputProjection: onToolOutputProjection as unknown as () => void,
      });
      expect(result.stopReason).toBe('end_turn');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(events.filter((event) => event.type === 'hook_failed').map((event) => (event as any).hook)).toEqual([
        'onToolOutputProjection',
        'onToolOutputProjection',
      ]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
