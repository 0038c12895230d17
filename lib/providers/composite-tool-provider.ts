import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from './tool-invocation';
import { CompensationResult, ToolProvider, ToolProviderCapabilities } from './tool-provider';
import { ToolProviderError } from './tool-provider-error';

/**
 * Combines providers while keeping each one's implementation and state. Capabilities are
 * forwarded per tool, compensation is routed to the provider that owns the tool, and a tool name
 * offered by two providers is rejected at construction.
 */
export class CompositeToolProvider implements ToolProvider {
  private readonly owners = new Map<string, ToolProvider>();
  private readonly descriptors: readonly ToolDescriptor[];

  constructor(readonly providers: readonly ToolProvider[]) {
    const descriptors: ToolDescriptor[] = [];
    for (const provider of providers) {
      assertInvocable(provider);
      for (const descriptor of provider.listTools()) {
        if (this.owners.has(descriptor.name)) throw new ToolProviderError('duplicate_tool', `tool '${descriptor.name}' is offered by two providers`);
        this.owners.set(descriptor.name, provider);
        descriptors.push(descriptor);
      }
    }
    this.descriptors = Object.freeze(descriptors);
  }

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  /** The provider that owns a tool. */
  ownerOf(toolName: string): ToolProvider | undefined {
    return this.owners.get(toolName);
  }

  capabilities(toolName: string): ToolProviderCapabilities {
    return this.owners.get(toolName)?.capabilities?.(toolName) ?? NO_CAPABILITIES;
  }

  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): unknown {
    const owner = this.owners.get(toolName);
    if (owner === undefined) return standardFailure('unknown_tool', `no tool named '${toolName}'`);
    if (owner.invoke !== undefined) return owner.invoke(toolName, args, signal);
    return standardFailure('capability_mismatch', `the provider of '${toolName}' only accepts the rich invocation form`);
  }

  invokeTool(invocation: ToolInvocation): unknown {
    const owner = this.owners.get(invocation.toolName);
    if (owner === undefined) return standardFailure('unknown_tool', `no tool named '${invocation.toolName}'`);
    if (owner.invokeTool !== undefined) return owner.invokeTool(invocation);
    return owner.invoke!(invocation.toolName, invocation.arguments, invocation.signal);
  }

  async compensate(invocation: ToolInvocation, failure: ToolOutcome): Promise<CompensationResult> {
    const owner = this.owners.get(invocation.toolName);
    if (owner?.compensate === undefined) return { ok: false, message: `the provider of '${invocation.toolName}' cannot compensate` };
    return owner.compensate(invocation, failure);
  }
}

/** Combines providers into one {@link CompositeToolProvider}. */
export function composeToolProviders(...providers: ToolProvider[]): CompositeToolProvider {
  return new CompositeToolProvider(providers);
}

/** Throws unless the provider implements at least one invoke form. */
export function assertInvocable(provider: ToolProvider): void {
  if (typeof provider.invoke !== 'function' && typeof provider.invokeTool !== 'function')
    throw new ToolProviderError('invalid_provider', 'a tool provider must implement invoke(name, args, signal) or invokeTool(invocation)');
}
