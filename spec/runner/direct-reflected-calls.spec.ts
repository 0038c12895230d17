import 'reflect-metadata';
import {
  Contract,
  Field,
  LlmAgentEvent,
  LlmAgentRunner,
  ReflectedToolProvider,
  ScriptedModelClient,
  Tool,
  ToolFailureError,
  ToolInvocation,
  ReflectedToolContext,
} from '../../lib';

const MODES = [
  'text',
  'data',
  'async-data',
  'undefined',
  'async-undefined',
  'outcome',
  'throw',
  'reject',
  'failure-error',
  'bigint',
  'no-json',
] as const;

@Tool({ name: 'behave', description: 'Does what the mode says.' })
class Behave {
  @Field({ description: 'What to do.', enum: [...MODES] }) mode!: string;
  invoke(): unknown {
    switch (this.mode) {
      case 'text':
        return 'plain text';
      case 'data':
        return { city: 'Oslo', list: [1, { deep: true }] };
      case 'async-data':
        return Promise.resolve({ city: 'Oslo' });
      case 'undefined':
        return undefined;
      case 'async-undefined':
        return Promise.resolve(undefined);
      case 'outcome':
        return {
          ok: false,
          error: { code: 'quota_exceeded', category: 'rate_limited', message: 'slow down', retryable: true },
        };
      case 'throw':
        throw new Error('database is down');
      case 'reject':
        return Promise.reject(new Error('rejected'));
      case 'failure-error':
        throw new ToolFailureError({ code: 'not_found', message: 'no such city', retryable: false });
      case 'bigint':
        return { n: 1n };
      default:
        return new Map();
    }
  }
}

@Tool({ name: 'typed', description: 'Declares an output schema and returns nothing.' })
@Contract({ outputSchema: { type: 'object', properties: { n: { type: 'number' } } } })
class Typed {
  @Field({ description: 'Whether to answer asynchronously.' }) later!: boolean;
  invoke(): unknown {
    return this.later ? Promise.resolve(undefined) : undefined;
  }
}

/**
 * The same classes through the rich invocation (`invokeTool` is overridden, so the runner does not start calls
 * directly).
 */
class ThroughInvokeTool extends ReflectedToolProvider {
  override invokeTool(invocation: ToolInvocation) {
    return super.invokeTool(invocation);
  }
}

const model = () => new ScriptedModelClient([{ text: 'unused' }]);

describe('a runner call of a plain reflected provider (started directly)', () => {
  it.each(MODES)('gives the same result as through invokeTool: %s', async (mode) => {
    const direct = await new LlmAgentRunner(model(), new ReflectedToolProvider([Behave])).invokeToolCall({
      id: 'c',
      name: 'behave',
      arguments: { mode },
    });
    const rich = await new LlmAgentRunner(model(), new ThroughInvokeTool([Behave])).invokeToolCall({
      id: 'c',
      name: 'behave',
      arguments: { mode },
    });
    expect(direct.outcome).toEqual(rich.outcome);
    expect(direct.attempts).toBe(rich.attempts);
  });

  it.each([false, true])(
    'treats undefined from a tool with an output schema as invokeTool does (answered later: %s)',
    async (later) => {
      const direct = await new LlmAgentRunner(model(), new ReflectedToolProvider([Typed])).invokeToolCall({
        id: 'c',
        name: 'typed',
        arguments: { later },
      });
      const rich = await new LlmAgentRunner(model(), new ThroughInvokeTool([Typed])).invokeToolCall({
        id: 'c',
        name: 'typed',
        arguments: { later },
      });
      expect(direct.outcome).toEqual(rich.outcome);
    },
  );

  it('is not started directly when invokeTool is patched on the instance or the prototype (instrumentation sees every call)', async () => {
    const seen: string[] = [];
    const patched = new ReflectedToolProvider([Behave]);
    const own = patched.invokeTool.bind(patched);
    patched.invokeTool = (invocation) => (seen.push(`instance:${invocation.toolName}`), own(invocation));
    await new LlmAgentRunner(model(), patched).invokeToolCall({ id: 'c', name: 'behave', arguments: { mode: 'text' } });
    const prototype = ReflectedToolProvider.prototype;
    const original = prototype.invokeTool;
    prototype.invokeTool = function (this: ReflectedToolProvider, invocation: ToolInvocation) {
      seen.push(`prototype:${invocation.toolName}`);
      return original.call(this, invocation);
    };
    try {
      const result = await new LlmAgentRunner(model(), new ReflectedToolProvider([Behave])).invokeToolCall({
        id: 'c',
        name: 'behave',
        arguments: { mode: 'text' },
      });
      expect(result.outcome).toEqual({ ok: true, text: 'plain text' });
    } finally {
      prototype.invokeTool = original;
    }
    expect(seen).toEqual(['instance:behave', 'prototype:behave']);
  });

  it('validates arguments the runner validated against another schema again, and executes nothing when they are bad', async () => {
    let invoked = 0;
    @Tool({ name: 'count', description: 'Counts calls.' })
    class Count {
      @Field({ description: 'A number.' }) n!: number;
      invoke(): number {
        return ++invoked;
      }
    }
    class Widening extends ReflectedToolProvider {
      override listTools() {
        return super
          .listTools()
          .map((descriptor) => ({ ...descriptor, inputSchema: { type: 'object', additionalProperties: true } }));
      }
    }
    const result = await new LlmAgentRunner(model(), new Widening([Count])).invokeToolCall({
      id: 'c',
      name: 'count',
      arguments: { n: 'seven' },
    });
    expect(result.outcome.error?.code).toBe('invalid_arguments');
    expect(invoked).toBe(0);
  });
});

describe('the deadline of a directly started reflected tool', () => {
  it('fires for a tool that ignores its signal, and aborts the signal its context gave it', async () => {
    let seen: AbortSignal | undefined;
    @Tool({ name: 'stuck', description: 'Never answers.' })
    @Contract({ timeoutMs: 30 })
    class Stuck {
      @Field({ description: 'Ignored.' }) note!: string;
      invoke(context: ReflectedToolContext): Promise<never> {
        seen = context.signal;
        return new Promise(() => undefined);
      }
    }
    const events: LlmAgentEvent[] = [];
    const result = await new LlmAgentRunner(model(), new ReflectedToolProvider([Stuck])).invokeToolCall(
      { id: 'c', name: 'stuck', arguments: { note: 'x' } },
      { onEvent: (event) => events.push(event) },
    );
    expect(result.outcome.error?.code).toBe('timeout');
    expect(seen?.aborted).toBe(true);
    expect(events.map((event) => event.type)).toContain('tool_timeout');
  });

  it('is a timeout for a tool that blocks the thread past it, synchronously or before its promise, its result discarded', async () => {
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    @Tool({ name: 'spin', description: 'Blocks the thread.' })
    @Contract({ timeoutMs: 20 })
    class Spin {
      @Field({ description: 'Answer asynchronously.' }) later!: boolean;
      invoke(): unknown {
        busy(60);
        return this.later ? Promise.resolve('spun') : 'spun';
      }
    }
    const runner = new LlmAgentRunner(model(), new ReflectedToolProvider([Spin]));
    for (const later of [false, true]) {
      const events: LlmAgentEvent[] = [];
      const result = await runner.invokeToolCall(
        { id: `c${later}`, name: 'spin', arguments: { later } },
        { onEvent: (event) => events.push(event) },
      );
      expect(result.outcome.error?.code).toBe('timeout');
      await new Promise((resolve) => setImmediate(resolve));
      expect(events.find((event) => event.type === 'tool_late_result_discarded')).toMatchObject({
        outcome: { ok: true, text: 'spun' },
      });
    }
  });
});
