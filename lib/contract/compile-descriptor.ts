import { DEFAULT_RETRY_POLICY, DEFAULT_RESOURCE_VERSION_POLICY, DEFAULT_TOOL_CONTRACT, NO_CAPABILITIES } from './defaults';
import { LlmTool } from './llm-tool';
import { checkToolDescriptor } from './check-descriptor';
import { ToolCapabilities, ToolContractOptions, ToolDescriptor } from './tool-descriptor';

/**
 * Builds a resolved, frozen descriptor from the model-visible tool and optional contract options,
 * filling every default, then checks it ({@link checkToolDescriptor}); throws `ToolContractError`.
 */
export function descriptorFromLlmTool(tool: LlmTool, options: ToolContractOptions = {}): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    ...DEFAULT_TOOL_CONTRACT,
    ...definedOnly(options),
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    retry: Object.freeze({ ...DEFAULT_RETRY_POLICY, ...definedOnly(options.retry ?? {}) }),
    resourceVersion: Object.freeze({ ...DEFAULT_RESOURCE_VERSION_POLICY, ...definedOnly(options.resourceVersion ?? {}) }),
    compensation: Object.freeze({ enabled: options.compensation?.enabled ?? false }),
    capabilities: Object.freeze({ ...NO_CAPABILITIES, ...definedOnly(options.capabilities ?? {}) }),
    metadata: Object.freeze({ ...(options.metadata ?? {}) }),
  };
  // Own frozen copies, so changing the options afterwards cannot change a checked descriptor.
  if (options.heartbeat !== undefined) Object.assign(descriptor, { heartbeat: Object.freeze({ ...options.heartbeat }) });
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

function definedOnly<T extends object>(value: T): Partial<T> {
  const result: Partial<T> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) (result as Record<string, unknown>)[key] = entry;
  return result;
}
