import { LlmAgentRunner, ScriptedModelClient, ToolContractError, ToolDescriptor, ToolProvider } from '../../lib';

const inputSchema = { type: 'object', properties: {}, additionalProperties: false };

function providerOf(descriptor: unknown): ToolProvider {
  return { listTools: () => [descriptor as ToolDescriptor], invoke: () => 'ok' };
}

function refusal(descriptor: unknown): ToolContractError {
  try {
    new LlmAgentRunner(new ScriptedModelClient([]), providerOf(descriptor));
  } catch (error) {
    expect(error).toBeInstanceOf(ToolContractError);
    return error as ToolContractError;
  }
  throw new Error('the descriptor was accepted');
}

describe('a hand-written descriptor missing contract fields', () => {
  it('is refused at construction with ToolContractError naming each missing field', () => {
    const error = refusal({ name: 'bare', description: 'Only the model-visible part.', inputSchema });
    expect(error.code).toBe('invalid_contract');
    expect(error.toolName).toBe('bare');
    for (const field of [
      'version',
      'sideEffect',
      'idempotency',
      'approval',
      'timeoutMs',
      'outputValidation',
      'retry',
      'resourceVersion',
      'compensation',
      'capabilities',
      'metadata',
    ])
      expect(error.message).toContain(field);
    expect(error.message).toMatch(/descriptorFromLlmTool/);
  });

  it('names a nested policy that is not an object', () => {
    const complete = {
      name: 'partial',
      description: 'd',
      version: '1',
      inputSchema,
      sideEffect: 'none',
      idempotency: 'idempotent',
      approval: 'never',
      timeoutMs: 1000,
      outputValidation: 'strict',
      retry: null,
      resourceVersion: { requireExpectedVersion: false, argumentPointer: '/v', outcomePointer: '/v' },
      compensation: 'off',
      capabilities: {},
      metadata: {},
    };
    const error = refusal(complete);
    expect(error.problems).toEqual(
      expect.arrayContaining([expect.stringContaining('retry'), expect.stringContaining('compensation')]),
    );
  });

  it('is refused when it is not an object at all', () => {
    expect(refusal(null).message).toMatch(/descriptor/);
  });
});
