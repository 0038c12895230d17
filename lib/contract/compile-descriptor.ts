import {
  DEFAULT_RETRY_POLICY,
  DEFAULT_RESOURCE_VERSION_POLICY,
  DEFAULT_TOOL_CONTRACT,
  NO_CAPABILITIES,
} from './defaults';
import { JsonSchema } from './json-schema';
import { LlmTool } from './llm-tool';
import { checkToolDescriptor } from './check-descriptor';
import { ToolContractError } from './tool-contract-error';
import { ToolCapabilities, ToolContractOptions, ToolDescriptor } from './tool-descriptor';

/**
 * Every key `ToolContractOptions` accepts; nested policies list their own keys, `true` means any
 * value (free-form objects and schemas). Typed so that a new option cannot be forgotten here.
 */
const CONTRACT_OPTION_KEYS = {
  version: true,
  outputSchema: true,
  sideEffect: true,
  idempotency: true,
  approval: true,
  timeoutMs: true,
  outputValidation: true,
  retry: ['maxAttempts', 'initialDelayMs', 'backoffCoefficient', 'maxDelayMs', 'jitter', 'retryableCategories'],
  resourceVersion: ['requireExpectedVersion', 'argumentPointer', 'outcomePointer'],
  compensation: ['enabled'],
  heartbeat: ['idleTimeoutMs'],
  capabilities: ['invocationContext', 'idempotencyKey', 'heartbeat', 'compensation'],
  metadata: true,
  modelOutputProjection: ['maxBytes', 'maxTokens'],
  maxCalls: true,
} as const satisfies Record<keyof ToolContractOptions, true | readonly string[]>;

/**
 * Builds a resolved, frozen descriptor from the model-visible tool and optional contract options,
 * filling every default, then checks it ({@link checkToolDescriptor}); throws `ToolContractError`.
 * An option key the contract does not know (a typo such as `retries: 3`, or `retry.maxAttempt`) is
 * refused rather than ignored, so a policy the author meant to set cannot silently stay at its default.
 */
export function descriptorFromLlmTool(tool: LlmTool, options: ToolContractOptions = {}): ToolDescriptor {
  checkToolContractOptionKeys(tool.name, options);
  if (typeof options.outputSchema === 'function')
    throw new ToolContractError('invalid_contract', tool.name, [
      'outputSchema is a class: give its JSON Schema here (a class is reflected by @Contract, defineTool and toolDescriptorOf)',
    ]);
  const descriptor: ToolDescriptor = {
    ...DEFAULT_TOOL_CONTRACT,
    ...definedOnly(options as ToolContractOptions<JsonSchema>),
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    retry: Object.freeze({ ...DEFAULT_RETRY_POLICY, ...frozenCopies(definedOnly(options.retry ?? {})) }),
    resourceVersion: Object.freeze({
      ...DEFAULT_RESOURCE_VERSION_POLICY,
      ...definedOnly(options.resourceVersion ?? {}),
    }),
    compensation: Object.freeze({ enabled: options.compensation?.enabled ?? false }),
    capabilities: Object.freeze({ ...NO_CAPABILITIES, ...definedOnly(options.capabilities ?? {}) }),
    metadata: frozenCopy(options.metadata ?? {}),
  };
  if (options.outputSchema !== undefined) Object.assign(descriptor, { outputSchema: frozenCopy(options.outputSchema) });
  // Own frozen copies (nested ones too: metadata, outputSchema, retryableCategories), so changing the
  // options afterwards cannot change a checked descriptor.
  if (options.heartbeat !== undefined)
    Object.assign(descriptor, { heartbeat: Object.freeze({ ...options.heartbeat }) });
  if (options.modelOutputProjection !== undefined)
    Object.assign(descriptor, { modelOutputProjection: Object.freeze({ ...options.modelOutputProjection }) });
  checkToolDescriptor(descriptor);
  return Object.freeze(descriptor);
}

/**
 * Capabilities a provider must declare for this contract: the explicit `capabilities` plus those
 * implied by `idempotency: 'idempotent_with_key'`, a heartbeat policy and enabled compensation.
 */
export function requiredCapabilities(descriptor: ToolDescriptor): ToolCapabilities {
  return {
    invocationContext: descriptor.capabilities.invocationContext,
    idempotencyKey: descriptor.capabilities.idempotencyKey || descriptor.idempotency === 'idempotent_with_key',
    heartbeat: descriptor.capabilities.heartbeat || descriptor.heartbeat !== undefined,
    compensation: descriptor.capabilities.compensation || descriptor.compensation.enabled,
  };
}

/** A deep copy of plain objects and arrays, frozen at every level; anything else is kept as is. */
function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) copy[key] = frozenCopy(entry);
  return Object.freeze(copy) as T;
}

function frozenCopies<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) copy[key] = frozenCopy(entry);
  return copy as T;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const result: Partial<T> = {};
  for (const [key, entry] of Object.entries(value))
    if (entry !== undefined) (result as Record<string, unknown>)[key] = entry;
  return result;
}

/**
 * Throws `ToolContractError` listing every key of contract options that `ToolContractOptions` does
 * not have (at the top level and inside the nested policies). `@Contract(...)` calls it at
 * decoration time, `descriptorFromLlmTool` again for options given to it directly.
 */
export function checkToolContractOptionKeys(toolName: string, options: ToolContractOptions): void {
  const problems = unknownOptionProblems(options);
  if (problems.length > 0) throw new ToolContractError('invalid_contract', toolName, problems);
}

function unknownOptionProblems(options: ToolContractOptions): string[] {
  if (typeof options !== 'object' || options === null) return ['contract options must be an object'];
  const problems: string[] = [];
  const known = CONTRACT_OPTION_KEYS as Record<string, true | readonly string[]>;
  for (const [key, value] of Object.entries(options)) {
    const nested = Object.prototype.hasOwnProperty.call(known, key) ? known[key] : undefined;
    if (nested === undefined) problems.push(`unknown contract option '${key}'`);
    else if (nested !== true && value !== undefined) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        problems.push(`${key} must be an object`);
      else
        for (const inner of Object.keys(value))
          if (!nested.includes(inner)) problems.push(`unknown contract option '${key}.${inner}'`);
    }
  }
  return problems;
}
