import { LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

function errorOf(content: string) {
  const parsed = JSON.parse(content);
  expect(parsed.ok).toBe(false);
  return parsed.error as { code: string; category: string; message: string; retryable: boolean };
}

describe('duplicate tool call ids in one turn', () => {
  function model() {
    return new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'x', name: 'charge', arguments: { amount: 1 } },
          { id: 'x', name: 'charge', arguments: { amount: 1 } },
        ],
      },
      { text: 'done' },
    ]);
  }
  function charges() {
    return new FunctionProvider().add(
      'charge',
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'charged';
      },
      {},
      { amount: { type: 'integer' } },
    );
  }

  it('runs the first call only and refuses the repeat, in memory', async () => {
    const tools = charges();
    const result = await new LlmAgentRunner(model(), tools).complete('go');
    expect(tools.calls).toHaveLength(1);
    expect(result.toolCalls[0].outcome).toEqual({ ok: true, text: 'charged' });
    expect(errorOf(result.toolCalls[1].content)).toMatchObject({
      code: 'duplicate_call_id',
      category: 'validation',
      retryable: false,
    });
    expect(result.toolCalls[1].attempts).toBe(0);
    expect(result.stopReason).toBe('end_turn');
  });

  it('in a durable run: the run completes, the first call is admitted once, the repeat executes nothing', async () => {
    const tools = charges();
    const store = new MemoryRunStore();
    const result = await new LlmAgentRunner(model(), tools).complete('go', { store, runId: 'dup' });
    expect(result.stopReason).toBe('end_turn');
    expect(tools.calls).toHaveLength(1);
    const record = (await store.loadRun('dup'))!;
    expect(record.status).toBe('completed');
    expect(record.toolCalls).toEqual([
      expect.objectContaining({ callId: 'x', status: 'admitted', outcome: { ok: true, text: 'charged' } }),
    ]);
  });
});

describe('a call that fails the run does not leave the rest of its turn running unobserved', () => {
  it('a store error on one call: the other calls of the turn settle (and are admitted) before the run rejects', async () => {
    class FlakyStore extends MemoryRunStore {
      override async admitOutcome(...args: Parameters<MemoryRunStore['admitOutcome']>) {
        if (args[1] === 'fast') throw new Error('disk full');
        return super.admitOutcome(...args);
      }
    }
    const store = new FlakyStore();
    let slowFinished = false;
    const tools = new FunctionProvider()
      .add('fast', () => 'f')
      .add('slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        slowFinished = true;
        return 's';
      });
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'fast', name: 'fast' },
          { id: 'slow', name: 'slow' },
        ],
      },
      { text: 'done' },
    ]);
    await expect(new LlmAgentRunner(model, tools).complete('go', { store, runId: 'flaky' })).rejects.toThrow(
      'disk full',
    );
    expect(slowFinished).toBe(true);
    const record = (await store.loadRun('flaky'))!;
    expect(record.toolCalls.find((call) => call.callId === 'slow')!.status).toBe('admitted');
    expect(record.status).toBe('failed');
  });
});

describe('the lease is lost mid-run', () => {
  /** A store where another worker takes the run over once `takeOver()` was called. */
  class TakenOverStore extends MemoryRunStore {
    private lost = false;
    takeOver(): void {
      this.lost = true;
    }
    override async renewLease(runId: string, workerId: string, ttlMs: number): Promise<boolean> {
      return this.lost ? false : super.renewLease(runId, workerId, ttlMs);
    }
  }

  it('the worker stops writing to the run: no cancelled admission, no Tool message, no status; complete() rejects with lease_held', async () => {
    const store = new TakenOverStore();
    const tools = new FunctionProvider().add(
      'charge',
      (invocation) =>
        new Promise((resolve) => {
          invocation.signal.addEventListener('abort', () => resolve('stopped early'));
          setTimeout(() => store.takeOver(), 5);
        }),
      { timeoutMs: 5_000 },
    );
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'charge' }] }, { text: 'done' }]);
    await expect(
      new LlmAgentRunner(model, tools).complete('go', { store, runId: 'lost', leaseTtlMs: 30 }),
    ).rejects.toMatchObject({ code: 'lease_held' });
    const record = (await store.loadRun('lost'))!;
    expect(record.status).toBe('running');
    expect(record.toolCalls).toEqual([expect.objectContaining({ callId: 'c', status: 'started' })]);
    expect(record.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(model.requests).toHaveLength(1);
  });
});

describe('run limits', () => {
  it.each([Number.NaN, 0, -1, 1.5])('maxSteps %p is refused before any model request', async (maxSteps) => {
    const model = new ScriptedModelClient([{ text: 'hi' }]);
    await expect(new LlmAgentRunner(model, new FunctionProvider()).complete('go', { maxSteps })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('leaseTtlMs must be a positive number', async () => {
    const model = new ScriptedModelClient([{ text: 'hi' }]);
    await expect(
      new LlmAgentRunner(model, new FunctionProvider()).complete('go', {
        store: new MemoryRunStore(),
        leaseTtlMs: Number.NaN,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
  });
});

describe('a provider that lists one tool name twice', () => {
  it('is refused at construction instead of silently enforcing only the last contract', () => {
    const provider = new FunctionProvider().add('rm', () => 'deleted', { approval: 'always' });
    const listed = provider.listTools();
    provider.listTools = () => [...listed, { ...listed[0], approval: 'never' }];
    expect(() => new LlmAgentRunner(new ScriptedModelClient([]), provider)).toThrow(
      expect.objectContaining({ code: 'duplicate_tool' }),
    );
  });
});

describe("the runner's default memory", () => {
  class Inspectable extends LlmAgentRunner {
    conversation(runId: string) {
      return this.defaultMemory.messages(runId) as readonly unknown[];
    }
  }

  it('keeps no conversation after its run ends (a long-lived runner would otherwise hold every run), success or failure', async () => {
    const tools = new FunctionProvider().add('t', () => 'x'.repeat(10_000));
    const during: number[] = [];
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 't' }] }, { text: 'done' }]);
    const runner = new Inspectable(model, tools);
    const result = await runner.complete('go', {
      runId: 'kept-briefly',
      onToolResult: () => void during.push(runner.conversation('kept-briefly').length),
    });
    expect(during).toEqual([2]);
    expect(result.messages).toHaveLength(4);
    expect(runner.conversation('kept-briefly')).toEqual([]);
    await expect(runner.complete('again', { runId: 'fails' })).rejects.toMatchObject({ code: 'script_exhausted' });
    expect(runner.conversation('fails')).toEqual([]);
  });
});

describe('a model tool call whose arguments carry __proto__', () => {
  it.each([
    [
      'an object (as a client decodes it)',
      JSON.parse('{"__proto__":{"isAdmin":true},"city":"Oslo"}') as Record<string, unknown>,
    ],
    ['JSON text', '{"__proto__":{"isAdmin":true},"city":"Oslo"}'],
  ])('as %s is refused by pointer before anything runs, and no prototype is polluted', async (_how, args) => {
    const tools = new FunctionProvider().add('t', () => 'ran', {}, { city: { type: 'string' } });
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), tools).invokeToolCall({
      id: 'c',
      name: 't',
      arguments: args as never,
    });
    const error = errorOf(record.content);
    expect(error.code).toBe('invalid_arguments');
    expect(
      (JSON.parse(record.content).error.details.issues as { pointer: string }[]).map((issue) => issue.pointer),
    ).toEqual(['/__proto__']);
    expect(tools.calls).toHaveLength(0);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
