import {
  checkToolDescriptor,
  computeRetryDelayMs,
  DEFAULT_RETRY_POLICY,
  descriptorFromLlmTool,
} from '../../lib/contract';
import {
  Contract,
  DEFAULT_TOOL_CONTRACT,
  Field,
  LlmTool,
  Tool,
  ToolContractError,
  ToolContractOptions,
  ToolDescriptor,
  toolDescriptorOf,
} from '../../lib';
import { fieldTraits, makeLlmTool, toolContract } from '../../lib/tools';
import { requiredCapabilities } from '../../lib/contract/compile-descriptor';

const weatherTool: LlmTool = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

/** The `ToolContractError` thrown by `action`; fails the test when nothing or something else is thrown. */
function contractError(action: () => unknown): ToolContractError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolContractError);
    return error as ToolContractError;
  }
  throw new Error('expected a ToolContractError');
}

function refusedOptions(options: ToolContractOptions): ToolContractError {
  return contractError(() => descriptorFromLlmTool(weatherTool, options));
}

describe('DEFAULT_TOOL_CONTRACT', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_TOOL_CONTRACT).toEqual({
      version: '1',
      sideEffect: 'none',
      idempotency: 'non_idempotent',
      approval: 'when_destructive',
      timeoutMs: 30_000,
      outputValidation: 'strict',
      retry: {
        maxAttempts: 1,
        initialDelayMs: 200,
        backoffCoefficient: 2,
        maxDelayMs: 10_000,
        jitter: 0.2,
        retryableCategories: ['timeout', 'rate_limited', 'unavailable', 'transient'],
      },
      resourceVersion: {
        requireExpectedVersion: false,
        argumentPointer: '/expectedVersion',
        outcomePointer: '/version',
      },
      compensation: { enabled: false },
      capabilities: { invocationContext: false, idempotencyKey: false, heartbeat: false, compensation: false },
      metadata: {},
    });
    expect(Object.isFrozen(DEFAULT_TOOL_CONTRACT)).toBe(true);
    expect(Object.isFrozen(DEFAULT_TOOL_CONTRACT.retry)).toBe(true);
  });
});

describe('descriptorFromLlmTool', () => {
  it('fills every default and keeps name, description and input schema', () => {
    const descriptor = descriptorFromLlmTool(weatherTool);
    expect(descriptor).toEqual({ ...DEFAULT_TOOL_CONTRACT, ...weatherTool });
    expect(descriptor.inputSchema).toBe(weatherTool.inputSchema);
    expect(descriptor.outputSchema).toBeUndefined();
    expect(descriptor.heartbeat).toBeUndefined();
    expect(descriptor.modelOutputProjection).toBeUndefined();
  });

  it('is frozen, nested policies included', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      retry: { maxAttempts: 2 },
      idempotency: 'idempotent',
      heartbeat: { idleTimeoutMs: 1_000 },
      modelOutputProjection: { maxBytes: 4_096 },
    });
    expect(Object.isFrozen(descriptor)).toBe(true);
    for (const part of [
      descriptor.retry,
      descriptor.resourceVersion,
      descriptor.compensation,
      descriptor.capabilities,
      descriptor.metadata,
    ])
      expect(Object.isFrozen(part)).toBe(true);
    expect(Object.isFrozen(descriptor.heartbeat)).toBe(true);
    expect(Object.isFrozen(descriptor.modelOutputProjection)).toBe(true);
    expect(() => {
      (descriptor as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow(TypeError);
  });

  it('does not share mutable objects with the options it was built from', () => {
    const options = {
      heartbeat: { idleTimeoutMs: 1_000 },
      modelOutputProjection: { maxBytes: 4_096 },
      metadata: { owner: 'ops' },
    };
    const descriptor = descriptorFromLlmTool(weatherTool, options);
    options.heartbeat.idleTimeoutMs = -1;
    options.modelOutputProjection.maxBytes = 1;
    options.metadata.owner = 'someone else';
    expect(descriptor.heartbeat).toEqual({ idleTimeoutMs: 1_000 });
    expect(descriptor.modelOutputProjection).toEqual({ maxBytes: 4_096 });
    expect(descriptor.metadata).toEqual({ owner: 'ops' });
  });

  it('merges partial nested options over the defaults', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      sideEffect: 'write',
      idempotency: 'idempotent',
      timeoutMs: 5_000,
      retry: { maxAttempts: 3, jitter: 0 },
      resourceVersion: { requireExpectedVersion: true },
      capabilities: { invocationContext: true },
      metadata: { team: 'weather' },
    });
    expect(descriptor.sideEffect).toBe('write');
    expect(descriptor.timeoutMs).toBe(5_000);
    expect(descriptor.retry).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3, jitter: 0 });
    expect(descriptor.resourceVersion).toEqual({
      requireExpectedVersion: true,
      argumentPointer: '/expectedVersion',
      outcomePointer: '/version',
    });
    expect(descriptor.capabilities).toEqual({
      invocationContext: true,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
    expect(descriptor.metadata).toEqual({ team: 'weather' });
    expect(descriptor.approval).toBe('when_destructive');
  });

  it('ignores options left undefined', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, { timeoutMs: undefined, retry: { maxAttempts: undefined } });
    expect(descriptor.timeoutMs).toBe(30_000);
    expect(descriptor.retry.maxAttempts).toBe(1);
  });
});

describe('contract.retry', () => {
  it('refuses several attempts on a non_idempotent tool without compensation', () => {
    const error = refusedOptions({ retry: { maxAttempts: 3 } });
    expect(error.code).toBe('invalid_contract');
    expect(error.toolName).toBe('get_weather');
    expect(error.problems).toEqual(['retry.maxAttempts > 1 needs an idempotent tool or enabled compensation']);
    expect(error.message).toContain("Tool 'get_weather' has an invalid contract");
  });

  it('allows several attempts with compensation or idempotency', () => {
    expect(
      descriptorFromLlmTool(weatherTool, { retry: { maxAttempts: 3 }, compensation: { enabled: true } }).retry
        .maxAttempts,
    ).toBe(3);
    expect(
      descriptorFromLlmTool(weatherTool, { retry: { maxAttempts: 3 }, idempotency: 'idempotent' }).retry.maxAttempts,
    ).toBe(3);
    expect(
      descriptorFromLlmTool(weatherTool, { retry: { maxAttempts: 3 }, idempotency: 'idempotent_with_key' }).retry
        .maxAttempts,
    ).toBe(3);
  });

  it('refuses maxAttempts below 1 or not an integer, and bad backoff numbers', () => {
    expect(refusedOptions({ retry: { maxAttempts: 0 } }).problems).toEqual([
      'retry.maxAttempts must be an integer >= 1',
    ]);
    expect(refusedOptions({ retry: { maxAttempts: 1.5 } }).problems).toContain(
      'retry.maxAttempts must be an integer >= 1',
    );
    const error = refusedOptions({
      retry: { initialDelayMs: -1, maxDelayMs: Infinity, backoffCoefficient: 0.5, jitter: 2 },
    });
    expect(error.problems).toEqual([
      'retry.initialDelayMs must be a finite number >= 0',
      'retry.maxDelayMs must be a finite number >= 0',
      'retry.backoffCoefficient must be >= 1',
      'retry.jitter must be within 0..1',
    ]);
  });
});

describe('contract.timeoutMs', () => {
  it.each([0, -5, NaN, Infinity])('refuses %p', (timeoutMs) => {
    const error = refusedOptions({ timeoutMs });
    expect(error.code).toBe('invalid_contract');
    expect(error.problems).toEqual([`timeoutMs must be a positive finite number, got ${String(timeoutMs)}`]);
  });

  it('refuses a heartbeat idle limit that is not positive', () => {
    expect(refusedOptions({ heartbeat: { idleTimeoutMs: 0 } }).problems).toEqual([
      'heartbeat.idleTimeoutMs must be a positive finite number',
    ]);
  });
});

describe('contract.modelOutputProjection', () => {
  it('refuses ceilings below 256 bytes and 128 tokens', () => {
    const error = refusedOptions({ modelOutputProjection: { maxBytes: 255, maxTokens: 127 } });
    expect(error.problems).toEqual([
      'modelOutputProjection.maxBytes must be an integer >= 256',
      'modelOutputProjection.maxTokens must be an integer >= 128',
    ]);
  });

  it('accepts ceilings at exactly 256 bytes and 128 tokens', () => {
    expect(
      descriptorFromLlmTool(weatherTool, { modelOutputProjection: { maxBytes: 256, maxTokens: 128 } })
        .modelOutputProjection,
    ).toEqual({
      maxBytes: 256,
      maxTokens: 128,
    });
  });

  it('refuses a contract that widens the run projection', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      modelOutputProjection: { maxBytes: 100_000, maxTokens: 20_000 },
    });
    const run = { maxBytes: 65_536, maxTokens: 10_000 };
    const error = contractError(() => checkToolDescriptor(descriptor, run));
    expect(error.problems).toEqual([
      "modelOutputProjection.maxBytes 100000 would widen the run's 65536",
      "modelOutputProjection.maxTokens 20000 would widen the run's 10000",
    ]);
    expect(() => checkToolDescriptor(descriptor, { maxBytes: 100_000, maxTokens: 20_000 })).not.toThrow();
    const tighter = descriptorFromLlmTool(weatherTool, { modelOutputProjection: { maxBytes: 1_024 } });
    expect(() => checkToolDescriptor(tighter, run)).not.toThrow();
  });
});

describe('contract literals', () => {
  it('refuses unknown literals, listing each problem', () => {
    const error = refusedOptions({
      sideEffect: 'explosive',
      idempotency: 'sometimes',
      approval: 'maybe',
      outputValidation: 'lenient',
      retry: { retryableCategories: ['timeout', 'bad_luck'] },
    } as unknown as ToolContractOptions);
    expect(error.problems).toEqual([
      'sideEffect must be one of none, read, write, destructive',
      'idempotency must be one of non_idempotent, idempotent, idempotent_with_key',
      'approval must be one of never, always, when_destructive',
      'outputValidation must be one of strict, warning, disabled',
      "retry.retryableCategories has unknown category 'bad_luck'",
    ]);
  });

  it('refuses several problems at once', () => {
    const error = refusedOptions({ timeoutMs: 0, retry: { maxAttempts: 2 }, modelOutputProjection: { maxBytes: 10 } });
    expect(error.problems).toHaveLength(3);
  });

  it('refuses a bad name, version, pointer and input schema in a hand-made descriptor', () => {
    const descriptor: ToolDescriptor = {
      ...descriptorFromLlmTool(weatherTool),
      name: 'bad name',
      version: '',
      resourceVersion: {
        requireExpectedVersion: false,
        argumentPointer: 'expectedVersion',
        outcomePointer: '/version',
      },
      inputSchema: { type: 'string' },
    };
    const error = contractError(() => checkToolDescriptor(descriptor));
    expect(error.problems).toEqual([
      'name must match ^[a-zA-Z0-9_-]{1,64}$',
      'version must be a non-empty string',
      "resourceVersion pointer 'expectedVersion' must be a JSON Pointer",
      'inputSchema must be a JSON Schema object with type "object"',
    ]);
  });
});

describe('toolDescriptorOf', () => {
  it('gives every default to a tool class without a contract', () => {
    @Tool({ description: 'Get the weather.' })
    class Plain {
      invoke(): void {}
      @Field() city!: string;
    }
    const descriptor = toolDescriptorOf(Plain);
    expect(descriptor).toEqual({ ...DEFAULT_TOOL_CONTRACT, ...makeLlmTool(Plain) });
    expect(toolDescriptorOf(Plain)).toBe(descriptor);
  });

  it('reads @Contract(...) options', () => {
    @Tool({ description: 'Update a setting.' })
    @Contract({ sideEffect: 'write', idempotency: 'idempotent', retry: { maxAttempts: 3 }, timeoutMs: 2_000 })
    class UpdateSetting {
      invoke(): void {}
      @Field() key!: string;
    }
    const descriptor = toolDescriptorOf(UpdateSetting);
    expect(descriptor.name).toBe('UpdateSetting');
    expect(descriptor.inputSchema).toEqual(makeLlmTool(UpdateSetting).inputSchema);
    expect(descriptor).toMatchObject({
      sideEffect: 'write',
      idempotency: 'idempotent',
      timeoutMs: 2_000,
      retry: { maxAttempts: 3 },
    });
    expect(Object.isFrozen(descriptor)).toBe(true);
  });

  it('refuses an impossible @Contract(...) when the descriptor is asked for', () => {
    @Tool({ description: 'Send a mail.' })
    @Contract({ sideEffect: 'write', retry: { maxAttempts: 2 } })
    class SendMail {
      invoke(): void {}
      @Field() to!: string;
    }
    const error = contractError(() => toolDescriptorOf(SendMail));
    expect(error.toolName).toBe('SendMail');
    expect(error.problems).toEqual(['retry.maxAttempts > 1 needs an idempotent tool or enabled compensation']);
  });

  it('reads toolContract(Class, factory) for a class that cannot be changed, calling the factory lazily', () => {
    class ThirdParty {
      static description = 'A class from another package.';
      @Field() query!: string;
      invoke(): void {}
    }
    const factory = jest.fn(() =>
      descriptorFromLlmTool(makeLlmTool(ThirdParty), { sideEffect: 'read', approval: 'never' }),
    );
    toolContract(ThirdParty, factory);
    expect(factory).not.toHaveBeenCalled();
    const descriptor = toolDescriptorOf(ThirdParty);
    expect(factory).toHaveBeenCalledTimes(1);
    expect(descriptor).toMatchObject({ name: 'ThirdParty', sideEffect: 'read', approval: 'never', timeoutMs: 30_000 });
    expect(Object.isFrozen(descriptor)).toBe(true);
    expect(toolDescriptorOf(ThirdParty)).toBe(descriptor);
  });

  it('checks what a toolContract factory returns', () => {
    class Legacy {
      static description = 'Legacy tool.';
      @Field() id!: string;
      invoke(): void {}
    }
    toolContract(Legacy, () => ({ ...descriptorFromLlmTool(makeLlmTool(Legacy)), timeoutMs: -1 }));
    expect(contractError(() => toolDescriptorOf(Legacy)).problems).toEqual([
      'timeoutMs must be a positive finite number, got -1',
    ]);
  });

  it('prefers the nearest contract along the class chain', () => {
    @Tool({ description: 'Base.' })
    @Contract({ sideEffect: 'read' })
    class BaseTool {
      invoke(): void {}
      @Field() id!: string;
    }
    @Tool({ description: 'Child.' })
    class ChildTool extends BaseTool {}
    @Tool({ description: 'Own.' })
    @Contract({ sideEffect: 'destructive' })
    class OwnTool extends BaseTool {}
    expect(toolDescriptorOf(ChildTool).sideEffect).toBe('read');
    expect(toolDescriptorOf(OwnTool).sideEffect).toBe('destructive');
  });
});

describe('requiredCapabilities', () => {
  it('is all false for the defaults', () => {
    expect(requiredCapabilities(descriptorFromLlmTool(weatherTool))).toEqual({
      invocationContext: false,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
  });

  it('adds the capabilities implied by idempotency key, heartbeat and compensation', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      idempotency: 'idempotent_with_key',
      heartbeat: { idleTimeoutMs: 500 },
      compensation: { enabled: true },
    });
    expect(requiredCapabilities(descriptor)).toEqual({
      invocationContext: false,
      idempotencyKey: true,
      heartbeat: true,
      compensation: true,
    });
  });

  it('keeps explicit capabilities', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      capabilities: { invocationContext: true, heartbeat: true },
    });
    expect(requiredCapabilities(descriptor)).toEqual({
      invocationContext: true,
      idempotencyKey: false,
      heartbeat: true,
      compensation: false,
    });
  });
});

describe('computeRetryDelayMs', () => {
  const policy = DEFAULT_RETRY_POLICY; // 200 ms, x2, cap 10 s, jitter 0.2

  it.each([
    [1, 0, 160],
    [1, 0.5, 200],
    [1, 0.999, 200 * (0.8 + 0.4 * 0.999)],
    [2, 0, 320],
    [2, 0.5, 400],
    [3, 0.5, 800],
    [3, 0.999, 800 * (0.8 + 0.4 * 0.999)],
  ])('after attempt %p with random %p waits %p ms', (failedAttempt, random, expected) => {
    expect(computeRetryDelayMs(policy, failedAttempt, () => random)).toBeCloseTo(expected, 9);
  });

  it('caps the delay at maxDelayMs, before and after jitter', () => {
    // 200 * 2^9 = 102400 -> 10000 base
    expect(computeRetryDelayMs(policy, 10, () => 0)).toBe(8_000);
    expect(computeRetryDelayMs(policy, 10, () => 0.5)).toBe(10_000);
    expect(computeRetryDelayMs(policy, 10, () => 0.999)).toBe(10_000);
    expect(computeRetryDelayMs(policy, 1_000, () => 0.999)).toBe(10_000);
  });

  it('has no jitter when jitter is 0 and treats attempt 0 as the first', () => {
    const exact = { ...policy, jitter: 0 };
    expect(computeRetryDelayMs(exact, 1, () => 0.999)).toBe(200);
    expect(computeRetryDelayMs(exact, 4, () => 0)).toBe(1_600);
    expect(computeRetryDelayMs(exact, 0, () => 0.3)).toBe(200);
  });

  it('stays within the documented bounds for Math.random', () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const delay = computeRetryDelayMs(policy, attempt);
      const base = Math.min(10_000, 200 * 2 ** (attempt - 1));
      expect(delay).toBeGreaterThanOrEqual(base * 0.8);
      expect(delay).toBeLessThanOrEqual(Math.min(10_000, base * 1.2));
    }
  });
});

describe('contract option keys', () => {
  it('refuses unknown top-level and nested keys given to descriptorFromLlmTool, listing each one', () => {
    const error = refusedOptions({
      retries: 3,
      retry: { maxAttempt: 3 },
      capabilities: { heartbeats: true },
    } as unknown as ToolContractOptions);
    expect(error.toolName).toBe('get_weather');
    expect(error.problems).toEqual([
      "unknown contract option 'retries'",
      "unknown contract option 'retry.maxAttempt'",
      "unknown contract option 'capabilities.heartbeats'",
    ]);
  });

  it('refuses keys that only a resolved descriptor has: name, description and inputSchema come from the tool', () => {
    expect(refusedOptions({ name: 'other', inputSchema: {} } as unknown as ToolContractOptions).problems).toEqual([
      "unknown contract option 'name'",
      "unknown contract option 'inputSchema'",
    ]);
  });

  it('refuses a nested policy that is not an object', () => {
    expect(refusedOptions({ retry: 3 } as unknown as ToolContractOptions).problems).toEqual([
      'retry must be an object',
    ]);
  });

  it('refuses a typo in @Contract(...) at decoration time, naming the class', () => {
    const error = contractError(() => {
      @Tool({ description: 'd' })
      @Contract({ sideEffect: 'write', retries: 3 } as unknown as ToolContractOptions)
      class Typo {
        invoke(): void {}
        @Field() a!: string;
      }
      return Typo;
    });
    expect(error.toolName).toBe('Typo');
    expect(error.problems).toEqual(["unknown contract option 'retries'"]);
  });

  it('accepts every documented key, with free-form metadata and schemas', () => {
    const descriptor = descriptorFromLlmTool(weatherTool, {
      version: '2',
      outputSchema: { type: 'object', anyKeyword: true },
      sideEffect: 'write',
      idempotency: 'idempotent',
      approval: 'never',
      timeoutMs: 1000,
      outputValidation: 'warning',
      retry: {
        maxAttempts: 2,
        initialDelayMs: 1,
        backoffCoefficient: 1,
        maxDelayMs: 5,
        jitter: 0,
        retryableCategories: ['timeout'],
      },
      resourceVersion: { requireExpectedVersion: true, argumentPointer: '/v', outcomePointer: '/v' },
      compensation: { enabled: true },
      heartbeat: { idleTimeoutMs: 10 },
      capabilities: { invocationContext: true, idempotencyKey: true, heartbeat: true, compensation: true },
      metadata: { anything: { nested: [1] } },
      modelOutputProjection: { maxBytes: 1024, maxTokens: 256 },
    });
    expect(descriptor.version).toBe('2');
  });
});

describe('toolContract factories', () => {
  it('belong to their class alone: a subclass tool with another name gets its own name and schema', () => {
    @Tool({ name: 'lookup', description: 'Look up.' })
    class Lookup {
      invoke(): void {}
      @Field() key!: string;
    }
    toolContract(Lookup, () => descriptorFromLlmTool(makeLlmTool(Lookup), { sideEffect: 'read' }));
    @Tool({ name: 'lookup_many' })
    class LookupMany extends Lookup {
      @Field({ type: () => [String] }) more!: string[];
    }
    const child = toolDescriptorOf(LookupMany);
    expect(child.name).toBe('lookup_many');
    expect(Object.keys((child.inputSchema as any).properties)).toEqual(['key', 'more']);
    expect(child.sideEffect).toBe('none');
    expect(toolDescriptorOf(Lookup)).toMatchObject({ name: 'lookup', sideEffect: 'read' });
  });

  it('still let a subclass inherit @Contract options from above the factory', () => {
    @Tool({ description: 'd' })
    @Contract({ sideEffect: 'destructive' })
    class Root {
      invoke(): void {}
      @Field() id!: string;
    }
    class Middle extends Root {}
    toolContract(Middle, () => descriptorFromLlmTool(makeLlmTool(Middle), { sideEffect: 'read' }));
    @Tool({ description: 'd' })
    class Leaf extends Middle {}
    expect(toolDescriptorOf(Middle).sideEffect).toBe('read');
    expect(toolDescriptorOf(Leaf).sideEffect).toBe('destructive');
  });

  it('run once per class, not again when unrelated classes are decorated, and again when the class changes', () => {
    class Vendor {
      static description = 'A vendor tool.';
      @Field() q!: string;
      invoke(): void {}
    }
    const factory = jest.fn(() => descriptorFromLlmTool(makeLlmTool(Vendor), { sideEffect: 'read' }));
    toolContract(Vendor, factory);
    const first = toolDescriptorOf(Vendor);
    @Tool({ description: 'd' })
    @Contract({ sideEffect: 'write' })
    class Unrelated {
      invoke(): void {}
      @Field() z!: string;
    }
    expect(toolDescriptorOf(Unrelated).sideEffect).toBe('write');
    expect(toolDescriptorOf(Vendor)).toBe(first);
    expect(factory).toHaveBeenCalledTimes(1);
    fieldTraits(Vendor, 'q', { description: 'The query.' });
    expect((toolDescriptorOf(Vendor).inputSchema as any).properties.q.description).toBe('The query.');
    expect(factory).toHaveBeenCalledTimes(2);
  });
});

describe('contract flags', () => {
  it("refuses flags that are not booleans: the string 'false' would switch compensation on", () => {
    const error = refusedOptions({
      retry: { maxAttempts: 3 },
      compensation: { enabled: 'false' },
      capabilities: { heartbeat: 1 },
      resourceVersion: { requireExpectedVersion: 'yes' },
    } as unknown as ToolContractOptions);
    expect(error.problems).toEqual([
      'compensation.enabled must be a boolean',
      'resourceVersion.requireExpectedVersion must be a boolean',
      'capabilities.heartbeat must be a boolean',
    ]);
  });

  it('refuses retryable categories that are not an array, with a ToolContractError rather than a TypeError', () => {
    expect(refusedOptions({ retry: { retryableCategories: 5 } } as unknown as ToolContractOptions).problems).toEqual([
      'retry.retryableCategories must be an array of categories',
    ]);
  });
});

describe('descriptorFromLlmTool copies', () => {
  it('shares no nested object with the options: metadata, outputSchema and retryable categories are frozen copies', () => {
    const options = {
      idempotency: 'idempotent' as const,
      metadata: { owner: { team: 'ops' } },
      outputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      retry: { maxAttempts: 2, retryableCategories: ['timeout' as const] },
    };
    const descriptor = descriptorFromLlmTool(weatherTool, options);
    options.metadata.owner.team = 'someone else';
    options.outputSchema.properties.n.type = 'string';
    (options.retry.retryableCategories as string[]).push('internal');
    expect(descriptor.metadata).toEqual({ owner: { team: 'ops' } });
    expect(descriptor.outputSchema).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
    expect(descriptor.retry.retryableCategories).toEqual(['timeout']);
    expect(Object.isFrozen((descriptor.metadata as any).owner)).toBe(true);
    expect(Object.isFrozen(descriptor.retry.retryableCategories)).toBe(true);
  });
});
