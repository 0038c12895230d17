import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { composeToolProviders } from '../../providers/composite-tool-provider';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { HandoffEntry } from './handoff';
import { ResolvedHandoff } from './handoff-agents';

/** The key of a transfer outcome's `metadata` that records the handoff (`{ from, to }`; never sent to the model). */
export const HANDOFF_METADATA_KEY = 'handoff';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

const CAPABILITIES: ToolProviderCapabilities = Object.freeze({
  invocationContext: false,
  idempotencyKey: false,
  heartbeat: false,
  compensation: false,
});

/**
 * The runner's provider with the transfer tools of its handoffs beside its own tools (the provider itself when it
 * has none). A transfer tool takes no arguments, has no side effect, is idempotent and never needs approval; its
 * outcome is `Transferred to <name>` with the handoff in `metadata.handoff`, so the store admits the handoff with
 * the call (in the record's hash chain) before the run continues with the target. @internal
 */
export function withTransferTools(
  provider: ToolProvider,
  from: string | undefined,
  handoffs: readonly ResolvedHandoff[],
): ToolProvider {
  if (handoffs.length === 0 || from === undefined) return provider;
  return composeToolProviders(provider, new TransferToolProvider(from, handoffs));
}

class TransferToolProvider implements ToolProvider {
  private readonly descriptors: readonly ToolDescriptor[];
  private readonly targets: ReadonlyMap<string, string>;

  constructor(
    private readonly from: string,
    handoffs: readonly ResolvedHandoff[],
  ) {
    this.descriptors = handoffs.map((handoff) =>
      descriptorFromLlmTool(
        { name: handoff.toolName, description: handoff.description, inputSchema: NO_ARGUMENTS },
        { sideEffect: 'none', idempotency: 'idempotent', approval: 'never', metadata: { handoff: handoff.name } },
      ),
    );
    this.targets = new Map(handoffs.map((handoff) => [handoff.toolName, handoff.name]));
  }

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  capabilities(): ToolProviderCapabilities {
    return CAPABILITIES;
  }

  invokeTool(invocation: ToolInvocation): ToolOutcome {
    const to = this.targets.get(invocation.toolName) ?? invocation.toolName;
    const recorded: JsonObject = { from: this.from, to };
    return { ok: true, text: `Transferred to ${to}`, metadata: { [HANDOFF_METADATA_KEY]: recorded } };
  }
}

/** The handoff an admitted transfer outcome records, when it is one. @internal */
export function handoffOfOutcome(outcome: ToolOutcome | undefined): Pick<HandoffEntry, 'from' | 'to'> | undefined {
  if (outcome === undefined || !outcome.ok) return undefined;
  const recorded = outcome.metadata?.[HANDOFF_METADATA_KEY];
  if (typeof recorded !== 'object' || recorded === null || Array.isArray(recorded)) return undefined;
  const { from, to } = recorded as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' ? { from, to } : undefined;
}
