import { LlmAgentRunner, ScriptedModelClient, ToolContractError } from '../../lib';
import { AgentToolError } from '../../lib/agents';
import { countingTools } from './agent-tree';
import { makeTempDir } from '../durable/temp-dir';

const temp = makeTempDir('agent-contract');
afterAll(() => temp.cleanup());

function runnerWith(tools: Parameters<typeof countingTools>[1]): LlmAgentRunner {
  return new LlmAgentRunner(new ScriptedModelClient([{ text: 'ok' }]), countingTools(temp.path, tools));
}

describe('the contract of an agent tool is derived from its child tools', () => {
  it('a read-only child is read, idempotent when every tool is, and asks no approval', () => {
    const [tool] = runnerWith({
      search: { sideEffect: 'read', idempotency: 'idempotent' },
      fetch: { sideEffect: 'none', idempotency: 'idempotent' },
    })
      .asTool({ name: 'researcher', description: 'Reads.' })
      .listTools();
    expect(tool).toMatchObject({ sideEffect: 'read', idempotency: 'idempotent', approval: 'when_destructive' });
  });

  it('a child with a destructive tool is destructive, non-idempotent, and needs approval', () => {
    const [tool] = runnerWith({
      search: { sideEffect: 'read', idempotency: 'idempotent' },
      purge: { sideEffect: 'destructive', idempotency: 'idempotent_with_key' },
    })
      .asTool({ name: 'janitor', description: 'Deletes.' })
      .listTools();
    expect(tool).toMatchObject({
      sideEffect: 'destructive',
      idempotency: 'non_idempotent',
      approval: 'when_destructive',
    });
  });

  it("the strongest approval mode among the child's tools wins", () => {
    const [tool] = runnerWith({ mail: { sideEffect: 'write', approval: 'always' }, read: { sideEffect: 'read' } })
      .asTool({ name: 'mailer', description: 'Mails.' })
      .listTools();
    expect(tool).toMatchObject({ sideEffect: 'write', approval: 'always' });
  });

  it('the host may tighten the derived contract', () => {
    const [tool] = runnerWith({ search: { sideEffect: 'read', idempotency: 'idempotent' } })
      .asTool({
        name: 'researcher',
        description: 'Reads.',
        contract: { sideEffect: 'write', idempotency: 'non_idempotent', approval: 'always' },
      })
      .listTools();
    expect(tool).toMatchObject({ sideEffect: 'write', idempotency: 'non_idempotent', approval: 'always' });
  });

  it.each([
    [{ sideEffect: 'read' as const }, "sideEffect 'read' is weaker than 'destructive'"],
    [{ idempotency: 'idempotent' as const }, "idempotency 'idempotent' is weaker than 'non_idempotent'"],
    [{ approval: 'never' as const }, "approval 'never' is weaker than 'when_destructive'"],
  ])('a loosening %j is refused with contract_loosened', (contract, message) => {
    const runner = runnerWith({ purge: { sideEffect: 'destructive' } });
    let thrown: unknown;
    try {
      runner.asTool({ name: 'janitor', description: 'Deletes.', contract });
    } catch (error) {
      thrown = error;
    }
    expect(AgentToolError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'contract_loosened' });
    expect((thrown as Error).message).toContain(message);
  });

  it('a value outside the contract vocabulary (say from JSON) is invalid_agent_tool, not taken', () => {
    const runner = runnerWith({ search: { sideEffect: 'read' } });
    expect(() =>
      runner.asTool({ name: 'x', description: 'x', contract: { sideEffect: '__proto__' as never } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_agent_tool' }));
  });

  it.each([
    ['a ToolContractOptions key an agent tool does not take', { maxCalls: 1 }, "unknown contract option 'maxCalls'"],
    ['a typo beside a known key', { approval: 'always', aproval: 'never' }, "unknown contract option 'aproval'"],
    ['an own __proto__ key (from JSON)', JSON.parse('{"__proto__":{"sideEffect":"none"}}'), "'__proto__'"],
    ['a symbol key', { [Symbol('evil')]: 1 }, "unknown contract option 'Symbol(evil)'"],
    ['options that are no object', 'always', 'must be a plain object'],
    ['null', null, 'must be a plain object'],
    ['an array', [], 'must be a plain object'],
    ['a value that is no string', { sideEffect: 5 }, 'sideEffect must be a string'],
    ['an object inheriting its fields', Object.create({ sideEffect: 'none', approval: 'never' }), 'nothing inherited'],
  ])(
    'contract options with %s are refused as @Contract refuses them (ToolContractError invalid_contract)',
    (_name, contract, message) => {
      const runner = runnerWith({ purge: { sideEffect: 'destructive' } });
      let thrown: unknown;
      try {
        runner.asTool({ name: 'helper', description: 'Helps.', contract: contract as never });
      } catch (error) {
        thrown = error;
      }
      expect(ToolContractError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'invalid_contract', toolName: 'helper' });
      expect((thrown as Error).message).toContain(message);
    },
  );
});
