import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
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
});
