import { descriptorFromLlmTool } from '../../lib/contract';
import { LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolInvocation, ToolProvider } from '../../lib';
import { FunctionProvider } from './support';

class Point {
  constructor(
    readonly x = 1,
    readonly y = 2,
  ) {}
}

const throwingThen = (): unknown => ({
  get then(): never {
    throw new Error('then getter failed');
  },
});
const throwingProxy = (): unknown =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error('get trap');
      },
      has: () => {
        throw new Error('has trap');
      },
      ownKeys: () => {
        throw new Error('ownKeys trap');
      },
      getPrototypeOf: () => {
        throw new Error('getPrototypeOf trap');
      },
    },
  );

const hostile: Record<string, () => unknown> = {
  then_getter: throwingThen,
  proxy: throwingProxy,
  map: () => new Map([['a', 1]]),
  set: () => new Set([1, 2]),
  class_instance: () => new Point(),
  nan: () => NaN,
  infinity: () => Infinity,
  nested_nan: () => ({ total: NaN }),
  nested_map: () => ({ index: new Map([['a', 1]]) }),
  async_map: () => Promise.resolve(new Map([['a', 1]])),
  async_instance: () => Promise.resolve(new Point()),
};

describe('a tool returns a string, a JSON value, or a ToolOutcome', () => {
  for (const [name, value] of Object.entries(hostile)) {
    it(`${name}: tool_error, and the other call of the turn keeps its result`, async () => {
      const provider = new FunctionProvider().add(name, value).add('fine', () => ({ answer: 42 }));
      const model = new ScriptedModelClient([
        {
          toolCalls: [
            { id: 'bad', name },
            { id: 'good', name: 'fine' },
          ],
        },
        { text: 'done' },
      ]);
      const result = await new LlmAgentRunner(model, provider).complete('go');
      expect(result.stopReason).toBe('end_turn');
      const [bad, good] = result.toolCalls;
      expect(bad.outcome.ok).toBe(false);
      expect(bad.outcome.error).toMatchObject({ code: 'tool_error', category: 'internal' });
      expect(bad.outcome.error?.message).toMatch(/not JSON|could not be read/);
      expect(good.outcome).toEqual({ ok: true, data: { answer: 42 } });
    });
  }

  it('a class instance with toJSON, and a Date, are their JSON form', async () => {
    class Money {
      toJSON() {
        return { cents: 5 };
      }
    }
    const provider = new FunctionProvider().add('money', () => ({ price: new Money(), at: new Date(0) }));
    const result = await new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [{ name: 'money' }] }, { text: 'done' }]),
      provider,
    ).complete('go');
    expect(result.toolCalls[0].outcome).toEqual({
      ok: true,
      data: { price: { cents: 5 }, at: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('undefined from a tool with an output schema is a tool_error, not an output_validation failure', async () => {
    const descriptor = descriptorFromLlmTool(
      {
        name: 'lookup',
        description: 'Look up.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      },
      { outputSchema: { type: 'object', properties: { id: { type: 'string' } } }, outputValidation: 'warning' },
    );
    const provider: ToolProvider = {
      listTools: (): readonly ToolDescriptor[] => [descriptor],
      invokeTool: (_invocation: ToolInvocation) => undefined,
    };
    const result = await new LlmAgentRunner(new ScriptedModelClient([{ text: 'unused' }]), provider).invokeToolCall({
      id: 'c',
      name: 'lookup',
      arguments: {},
    });
    expect(result.outcome.error).toMatchObject({ code: 'tool_error' });
    expect(result.outcome.error?.message).toMatch(/not JSON/);
  });

  it('undefined from a tool without an output schema stays an empty text success', async () => {
    const provider = new FunctionProvider().add('noop', () => undefined);
    const result = await new LlmAgentRunner(new ScriptedModelClient([{ text: 'unused' }]), provider).invokeToolCall({
      id: 'c',
      name: 'noop',
      arguments: {},
    });
    expect(result.outcome).toEqual({ ok: true, text: '' });
  });
});
