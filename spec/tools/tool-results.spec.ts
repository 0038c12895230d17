import { Field, LlmAgentRunner, ScriptedModelClient, Tool, ToolOutcome } from '../../lib';
import { invokeReflectedTool, toToolOutcome } from '../../lib/tools';
import { thrownToToolOutcome } from '../../lib/tools/to-tool-outcome';
import { FunctionProvider } from '../runner/support';

/** A tool class whose `invoke` returns (or throws) what the test gives it. */
function toolReturning(produce: () => unknown): abstract new () => object {
  @Tool({ description: 'Returns what the test says.' })
  class Returning {
    invoke(): unknown {
      return produce();
    }
  }
  return Returning;
}

function malformed(outcome: ToolOutcome): string {
  expect(outcome.ok).toBe(false);
  expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal', retryable: false });
  expect(outcome.error!.message).toMatch(/^tool returned a malformed outcome: /);
  return outcome.error!.message;
}

describe('invokeReflectedTool never rejects', () => {
  it('turns a thrown null-prototype object into a failure', async () => {
    const thrown = Object.create(null) as object;
    const outcome = await invokeReflectedTool(
      toolReturning(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool may throw anything
        throw thrown;
      }),
      {},
    );
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'tool_error', category: 'internal', message: '[object Object]', retryable: false },
    });
  });

  it('turns a thrown value whose toString throws into a failure', async () => {
    const thrown = {
      toString(): string {
        throw new Error('no string');
      },
    };
    const outcome = await invokeReflectedTool(
      toolReturning(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool may throw anything
        throw thrown;
      }),
      {},
    );
    expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal' });
  });

  it('turns a constructor that throws into a failure keeping its message', async () => {
    @Tool({ description: 'd' })
    class Broken {
      @Field() a!: string;
      constructor() {
        throw new Error('no database');
      }
      invoke(): string {
        return 'never';
      }
    }
    expect((await invokeReflectedTool(Broken, { a: 'x' })).error).toMatchObject({
      code: 'tool_error',
      message: 'no database',
    });
  });
});

describe('invokeReflectedTool result serialization', () => {
  it('takes a Promise of an outcome literal, filling its category', async () => {
    const outcome = await invokeReflectedTool(
      toolReturning(() => Promise.resolve({ ok: false, error: { code: 'not_found', message: 'gone' } })),
      {},
    );
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'not_found', category: 'not_found', message: 'gone', retryable: false },
    });
  });

  it('turns null into structured data and an object with toJSON into its JSON form', async () => {
    expect(
      await invokeReflectedTool(
        toolReturning(() => null),
        {},
      ),
    ).toEqual({ ok: true, data: null });
    const withToJson = { secret: 'internal', toJSON: () => ({ shown: 1 }) };
    expect(
      await invokeReflectedTool(
        toolReturning(() => withToJson),
        {},
      ),
    ).toEqual({ ok: true, data: { shown: 1 } });
  });

  it('serializes a Date inside the data of a returned outcome, as it does for plain data', async () => {
    const outcome = await invokeReflectedTool(
      toolReturning(() => ({ ok: true, data: { at: new Date(0) } })),
      {},
    );
    expect(outcome).toEqual({ ok: true, data: { at: '1970-01-01T00:00:00.000Z' } });
  });

  it('returns a well-formed outcome object itself', async () => {
    const returned: ToolOutcome = {
      ok: true,
      data: { a: [1] },
      resourceVersion: 3,
      compensation: 'none',
      metadata: { ms: 2 },
    };
    expect(
      await invokeReflectedTool(
        toolReturning(() => returned),
        {},
      ),
    ).toBe(returned);
  });

  it('refuses a returned outcome whose data is not JSON (a BigInt), instead of failing later when rendered', async () => {
    expect(
      malformed(
        await invokeReflectedTool(
          toolReturning(() => ({ ok: true, data: { n: BigInt(1) } })),
          {},
        ),
      ),
    ).toMatch(/data is not JSON/);
  });

  it('refuses a returned outcome whose text is not a string', async () => {
    expect(
      malformed(
        await invokeReflectedTool(
          toolReturning(() => ({ ok: true, text: 42 })),
          {},
        ),
      ),
    ).toMatch(/text must be a string/);
  });

  it('refuses an unknown category and a non-boolean retryable, keeping the tool message', async () => {
    const message = malformed(
      await invokeReflectedTool(
        toolReturning(() => ({
          ok: false,
          error: { code: 'busy', message: 'slow down', category: 'ratelimited', retryable: 'yes' },
        })),
        {},
      ),
    );
    expect(message).toMatch(/error\.category 'ratelimited' is not one of/);
    expect(message).toMatch(/error\.retryable must be a boolean/);
    expect(message).toMatch(/its error was 'busy': slow down/);
  });

  it('refuses a bad compensation state, resource version and metadata', async () => {
    const message = malformed(
      await invokeReflectedTool(
        toolReturning(() => ({
          ok: true,
          text: 'x',
          compensation: 'maybe',
          resourceVersion: Number.NaN,
          metadata: 'm',
        })),
        {},
      ),
    );
    expect(message).toMatch(/resourceVersion must be a string or a finite number/);
    expect(message).toMatch(/compensation must be one of/);
    expect(message).toMatch(/metadata must be a JSON object/);
  });
});

describe('toToolOutcome never throws', () => {
  const unreadable = (): unknown => ({
    get ok(): boolean {
      throw new Error('getter failed');
    },
  });

  it('turns a value whose getter or proxy trap throws into a failure', () => {
    const trapped = new Proxy(
      {},
      {
        getPrototypeOf(): never {
          throw new Error('trap failed');
        },
      },
    );
    for (const [value, reason] of [
      [unreadable(), 'getter failed'],
      [trapped, 'trap failed'],
      [
        {
          ok: true,
          get data(): never {
            throw new Error('late getter');
          },
        },
        'late getter',
      ],
    ] as const) {
      const outcome = toToolOutcome(value);
      expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal', retryable: false });
      expect(outcome.error!.message).toBe(`tool returned a value that could not be read: ${reason}`);
    }
  });

  it('describes a thrown proxy whose traps all throw', () => {
    const hostile = new Proxy(
      {},
      {
        get(): never {
          throw new Error('get');
        },
        getPrototypeOf(): never {
          throw new Error('proto');
        },
      },
    );
    expect(thrownToToolOutcome(hostile).error).toMatchObject({ code: 'tool_error', category: 'internal' });
  });

  it('lets the runner settle a call whose provider resolves to an unreadable value, not wait for the deadline', async () => {
    // The deadline is far beyond the test timeout: only a call settled on the value itself passes.
    const provider = new FunctionProvider().add('odd', () => Promise.resolve(unreadable()), { timeoutMs: 600_000 });
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall({
      id: 'c',
      name: 'odd',
      arguments: {},
    });
    expect(record.outcome.error).toMatchObject({
      code: 'tool_error',
      message: 'tool returned a value that could not be read: getter failed',
    });
  });
});
