import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from './tool-invocation';
import { CompensationResult, ToolProvider, ToolProviderCapabilities, ToolsChangedListener } from './tool-provider';
import { ToolsChangedEmitter } from './tools-changed-emitter';
import { ToolProviderError } from './tool-provider-error';

/**
 * Combines providers while keeping each one's implementation and state. Capabilities are
 * forwarded per tool, compensation is routed to the provider that owns the tool, and a tool name
 * offered by two providers is rejected. The tool list follows the providers: a tool a provider
 * adds later (`ToolRegistry.register`) is listed and routed too, and a name that becomes offered
 * twice is rejected then (`ToolProviderError`, `duplicate_tool`).
 */
export class CompositeToolProvider implements ToolProvider {
  private owners = new Map<string, ToolProvider>();
  private descriptors: readonly ToolDescriptor[] = [];
  /** What each provider listed when the routing table was last built. */
  private listed: (readonly ToolDescriptor[])[] = [];
  private readonly toolsChanged = new ToolsChangedEmitter();

  constructor(readonly providers: readonly ToolProvider[]) {
    for (const provider of providers) assertInvocable(provider);
    this.sync();
    // Subscribed once for the composite's life: a change of any part is a change of the whole.
    for (const provider of providers) provider.onToolsChanged?.(() => this.toolsChanged.emit());
  }

  /** Subscribes to changes of the combined list (any part's `onToolsChanged`); returns the unsubscribe function. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    return this.toolsChanged.subscribe(listener);
  }

  /** Rebuilds the routing table when a provider lists something else than last time. */
  private sync(): void {
    const lists = this.providers.map((provider) => provider.listTools());
    if (lists.length === this.listed.length && lists.every((list, index) => sameDescriptors(list, this.listed[index])))
      return;
    const owners = new Map<string, ToolProvider>();
    const descriptors: ToolDescriptor[] = [];
    lists.forEach((list, index) => {
      for (const descriptor of list) {
        if (owners.has(descriptor.name))
          throw new ToolProviderError('duplicate_tool', `tool '${descriptor.name}' is offered by two providers`);
        owners.set(descriptor.name, this.providers[index]);
        descriptors.push(descriptor);
      }
    });
    this.owners = owners;
    this.descriptors = Object.freeze(descriptors);
    this.listed = lists;
  }

  listTools(): readonly ToolDescriptor[] {
    this.sync();
    return this.descriptors;
  }

  /** The provider that owns a tool. */
  ownerOf(toolName: string): ToolProvider | undefined {
    this.sync();
    return this.owners.get(toolName);
  }

  capabilities(toolName: string): ToolProviderCapabilities {
    return this.ownerOf(toolName)?.capabilities?.(toolName) ?? NO_CAPABILITIES;
  }

  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): unknown {
    const owner = this.ownerOf(toolName);
    if (owner === undefined) return standardFailure('unknown_tool', `no tool named '${toolName}'`);
    if (owner.invoke !== undefined) return owner.invoke(toolName, args, signal);
    return standardFailure(
      'capability_mismatch',
      `the provider of '${toolName}' only accepts the rich invocation form`,
    );
  }

  invokeTool(invocation: ToolInvocation): unknown {
    const owner = this.ownerOf(invocation.toolName);
    if (owner === undefined) return standardFailure('unknown_tool', `no tool named '${invocation.toolName}'`);
    if (owner.invokeTool !== undefined) return owner.invokeTool(invocation);
    return owner.invoke!(invocation.toolName, invocation.arguments, invocation.signal);
  }

  async compensate(invocation: ToolInvocation, failure: ToolOutcome): Promise<CompensationResult> {
    const owner = this.ownerOf(invocation.toolName);
    if (owner?.compensate === undefined)
      return { ok: false, message: `the provider of '${invocation.toolName}' cannot compensate` };
    return owner.compensate(invocation, failure);
  }
}

function sameDescriptors(current: readonly ToolDescriptor[], previous: readonly ToolDescriptor[]): boolean {
  if (current === previous) return true;
  if (current.length !== previous.length) return false;
  for (let index = 0; index < current.length; index++) if (current[index] !== previous[index]) return false;
  return true;
}

/** Combines providers into one {@link CompositeToolProvider}. */
export function composeToolProviders(...providers: ToolProvider[]): CompositeToolProvider {
  return new CompositeToolProvider(providers);
}

/** Throws unless the provider implements at least one invoke form. */
export function assertInvocable(provider: ToolProvider): void {
  if (typeof provider.invoke !== 'function' && typeof provider.invokeTool !== 'function')
    throw new ToolProviderError(
      'invalid_provider',
      'a tool provider must implement invoke(name, args, signal) or invokeTool(invocation)',
    );
}
