import 'reflect-metadata';
import { descriptorFromLlmTool } from '../../lib/contract';
import {
  Field,
  LlmAgentRunner,
  ScriptedModelClient,
  Tool,
  ToolContractError,
  ToolDescriptor,
  toolDescriptorOf,
  ToolProvider,
  ToolProviderError,
  ReflectedToolProvider,
} from '../../lib';
import { toolContract } from '../../lib/tools';
import { SchemaCompileError } from '../../lib/validation';

// A runner checks every descriptor its provider lists when it is built, every time it is built: a
// descriptor that changed between two constructions is judged as it is now.

function providerOf(...descriptors: unknown[]): ToolProvider {
  return { listTools: () => descriptors as ToolDescriptor[], invoke: () => 'ok' };
}

function build(provider: ToolProvider): LlmAgentRunner {
  return new LlmAgentRunner(new ScriptedModelClient([{ text: 'done' }]), provider);
}

/** The error a construction throws (the test fails when it is accepted). */
function refusal(provider: ToolProvider): Error {
  try {
    build(provider);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the provider was accepted');
}

/** What a refusal says, to compare two of them. */
function summary(error: Error): unknown {
  return {
    type: error.constructor.name,
    code: (error as { code?: unknown }).code,
    message: error.message,
    problems: (error as { problems?: unknown }).problems,
  };
}

function freshInputSchema(): { type: string; properties: object; additionalProperties: boolean } {
  return { type: 'object', properties: {}, additionalProperties: false };
}

/** Every contract field spelled out, nothing frozen. */
function handWritten(name: string): Record<string, unknown> & { retry: Record<string, unknown> } {
  return {
    name,
    description: 'A hand-written descriptor.',
    version: '1',
    inputSchema: freshInputSchema(),
    sideEffect: 'none',
    idempotency: 'non_idempotent',
    approval: 'never',
    timeoutMs: 1_000,
    outputValidation: 'strict',
    retry: {
      maxAttempts: 1,
      initialDelayMs: 0,
      backoffCoefficient: 1,
      maxDelayMs: 0,
      jitter: 0,
      retryableCategories: [],
    },
    resourceVersion: { requireExpectedVersion: false, argumentPointer: '/v', outcomePointer: '/v' },
    compensation: { enabled: false },
    capabilities: { invocationContext: false, idempotencyKey: false, heartbeat: false, compensation: false },
    metadata: {},
  };
}

/** A frozen copy of a hand-written descriptor, frozen at every level. */
function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const entry of Object.values(value)) deepFrozen(entry);
    Object.freeze(value);
  }
  return value;
}

describe('a runner built again over a descriptor that changed', () => {
  it('refuses a mutable descriptor made invalid between two constructions', () => {
    const descriptor = handWritten('mutable');
    build(providerOf(descriptor));
    descriptor.timeoutMs = -1;
    const error = refusal(providerOf(descriptor));
    expect(error).toBeInstanceOf(ToolContractError);
    expect((error as ToolContractError).code).toBe('invalid_contract');
    expect(error.message).toMatch(/timeoutMs must be a positive finite number, got -1/);
  });

  it('refuses a descriptor frozen at the top whose retry policy changed (frozen is not enough: every level must be)', () => {
    // Frozen at every level but one: the retry policy.
    const fields = handWritten('shallow');
    for (const [key, value] of Object.entries(fields)) if (key !== 'retry') deepFrozen(value);
    const descriptor = Object.freeze(fields) as ReturnType<typeof handWritten>;
    build(providerOf(descriptor));
    descriptor.retry.maxAttempts = 3;
    const error = refusal(providerOf(descriptor));
    expect(error).toBeInstanceOf(ToolContractError);
    expect(error.message).toMatch(/retry.maxAttempts > 1 needs an idempotent tool or enabled compensation/);
  });

  it('refuses a frozen descriptor whose getter answers differently the second time', () => {
    let timeoutMs = 1_000;
    const fields = handWritten('getter');
    delete fields.timeoutMs;
    const descriptor = deepFrozen(
      Object.defineProperty(fields, 'timeoutMs', {
        get: () => timeoutMs,
        enumerable: true,
      }),
    );
    build(providerOf(descriptor));
    timeoutMs = 0;
    expect(refusal(providerOf(descriptor)).message).toMatch(/timeoutMs must be a positive finite number, got 0/);
  });

  it('refuses an immutable descriptor whose shared input schema stopped being an object schema', () => {
    const inputSchema = freshInputSchema();
    const descriptor = descriptorFromLlmTool({ name: 'shared_schema', description: 'd', inputSchema });
    build(providerOf(descriptor));
    inputSchema.type = 'array';
    const error = refusal(providerOf(descriptor));
    expect(error).toBeInstanceOf(ToolContractError);
    expect(error.message).toMatch(/inputSchema must be a JSON Schema object with type "object"/);
  });
});

describe('the tools a runner offers the model', () => {
  it('follow a mutable descriptor listed in a frozen list that stays the same', async () => {
    const descriptor = handWritten('renamed_description');
    const listed = Object.freeze([descriptor]);
    const frozenList: ToolProvider = { listTools: () => listed as unknown as ToolDescriptor[], invoke: () => 'ok' };
    const offeredBy = async (provider: ToolProvider): Promise<unknown> => {
      const model = new ScriptedModelClient([{ text: 'done' }]);
      await new LlmAgentRunner(model, provider).complete('hi');
      return model.requests[0]?.tools;
    };
    expect(await offeredBy(frozenList)).toEqual([
      expect.objectContaining({ description: 'A hand-written descriptor.' }),
    ]);
    descriptor.description = 'Described anew.';
    expect(await offeredBy(frozenList)).toEqual([expect.objectContaining({ description: 'Described anew.' })]);
  });

  it('are frozen, and the same for every runner over one provider whose descriptors are immutable', async () => {
    const provider = providerOf(
      descriptorFromLlmTool({ name: 'steady', description: 'd', inputSchema: freshInputSchema() }),
    );
    const frozenList: ToolProvider = { listTools: () => listedOnce, invoke: () => 'ok' };
    const listedOnce = Object.freeze([...provider.listTools()]);
    const offered: unknown[] = [];
    for (let construction = 0; construction < 2; construction++) {
      const model = new ScriptedModelClient([{ text: 'done' }]);
      await new LlmAgentRunner(model, frozenList).complete('hi');
      offered.push(model.requests[0]?.tools);
    }
    expect(offered[1]).toEqual(offered[0]);
    expect(Object.isFrozen(offered[0])).toBe(true);
    expect(Object.isFrozen((offered[0] as unknown[])[0])).toBe(true);
  });
});

describe('a bad descriptor', () => {
  it('is refused with the same error on every construction, frozen or not', () => {
    const mutable = handWritten('bad_contract');
    mutable.timeoutMs = Number.NaN;
    const frozen = deepFrozen(structuredClone(mutable));
    for (const descriptor of [mutable, frozen]) {
      const first = refusal(providerOf(descriptor));
      const second = refusal(providerOf(descriptor));
      expect(first).toBeInstanceOf(ToolContractError);
      expect(summary(second)).toEqual(summary(first));
    }
  });

  it('whose schema does not compile is refused with the same SchemaCompileError on every construction', () => {
    const descriptor = descriptorFromLlmTool({
      name: 'bad_schema',
      description: 'd',
      inputSchema: { type: 'object', notAKeyword: true },
    });
    const first = refusal(providerOf(descriptor));
    const second = refusal(providerOf(descriptor));
    expect(first).toBeInstanceOf(SchemaCompileError);
    expect(summary(second)).toEqual(summary(first));
  });

  it('listed twice is refused as a duplicate on every construction, though it passed its checks before', () => {
    const descriptor = descriptorFromLlmTool({ name: 'twice', description: 'd', inputSchema: freshInputSchema() });
    build(providerOf(descriptor));
    for (let construction = 0; construction < 2; construction++) {
      const error = refusal(providerOf(descriptor, descriptor));
      expect(error).toBeInstanceOf(ToolProviderError);
      expect((error as ToolProviderError).code).toBe('duplicate_tool');
    }
  });
});

describe('the descriptors the library makes', () => {
  @Tool({ name: 'reflected_weather', description: 'Weather.' })
  class ReflectedWeather {
    @Field({ description: 'City.' }) city!: string;
    invoke(): string {
      return 'sunny';
    }
  }

  class Factored {
    invoke(): string {
      return 'ok';
    }
  }
  toolContract(Factored, () =>
    descriptorFromLlmTool(
      { name: 'factored', description: 'd', inputSchema: freshInputSchema() },
      { sideEffect: 'read' },
    ),
  );

  class FactoredShallow {
    invoke(): string {
      return 'ok';
    }
  }
  toolContract(FactoredShallow, () => handWritten('factored_shallow') as unknown as ToolDescriptor);

  it('give a runner built again over the same descriptor the same tools and the same answers', async () => {
    const provider = new ReflectedToolProvider([ReflectedWeather]);
    const call = { id: 'c1', name: 'reflected_weather', arguments: '{"city":"Oslo"}' };
    for (let construction = 0; construction < 2; construction++) {
      const model = new ScriptedModelClient([{ toolCalls: [call] }, { text: 'done' }]);
      const result = await new LlmAgentRunner(model, provider).complete('weather?');
      expect(result.toolCalls.map((record) => record.outcome)).toEqual([expect.objectContaining({ ok: true })]);
      expect(model.requests[0]?.tools).toEqual([
        {
          name: 'reflected_weather',
          description: 'Weather.',
          inputSchema: toolDescriptorOf(ReflectedWeather).inputSchema,
        },
      ]);
    }
  });
});
