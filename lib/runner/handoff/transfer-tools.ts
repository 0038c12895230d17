import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { markRunLinkedDescriptor, parentRunOf } from '../../agents/parent-run-link';
import type { RunInProgress } from '../run-state';
import { composeToolProviders } from '../../providers/composite-tool-provider';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { HandoffEntry } from './handoff';
import type { HandoffAgent, ResolvedHandoff } from './handoff-agents';

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
    for (const descriptor of this.descriptors) markRunLinkedDescriptor(descriptor);
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
    const taken = claimTransfer(parentRunOf(invocation), invocation.callId, to);
    if (taken !== undefined)
      return toolFailure({
        code: 'handoff_refused',
        category: 'conflict',
        retryable: false,
        message: `only one transfer a turn: this turn already hands the conversation to ${taken}`,
      });
    return transferOutcomeOf(this.from, to);
  }
}

/** The transfer each run's current turn made first: the call id and the target, by run. */
const claims = new WeakMap<RunInProgress, { readonly turn: number; readonly callId: string; readonly to: string }>();

/**
 * Claims the current turn's transfer for a call of a run: undefined when the call may transfer (the first of its
 * turn, or the same call again), else the target an earlier call of the turn took.
 */
function claimTransfer(run: RunInProgress | undefined, callId: string, to: string): string | undefined {
  if (run === undefined) return undefined;
  const claim = claims.get(run);
  if (claim !== undefined && claim.turn === run.turn && claim.callId !== callId) return claim.to;
  claims.set(run, { turn: run.turn, callId, to });
  return undefined;
}

/** The outcome of a transfer from `from` to `to`, exactly as a transfer tool answers it. */
function transferOutcomeOf(from: string, to: string): ToolOutcome {
  const recorded: JsonObject = { from, to };
  return { ok: true, text: `Transferred to ${to}`, metadata: { [HANDOFF_METADATA_KEY]: recorded } };
}

/**
 * Whether a call is a transfer of `holder`, the agent holding the run when it was made: one of the handoffs
 * configured on that runner has `toolName` as its transfer tool, and the outcome records a handoff from the holder
 * (`from`, its name) to that handoff (`to`, its name). The answer is the handoff and the holder's name; any other
 * call, whatever its name or outcome, is an ordinary call. The live run and a resume's replay ask this. @internal
 */
export function transferOf(
  holder: HandoffAgent,
  toolName: string,
  outcome: ToolOutcome | undefined,
): { readonly edge: ResolvedHandoff; readonly from: string } | undefined {
  const recorded = handoffOfOutcome(outcome);
  if (recorded === undefined || holder.name === undefined || recorded.from !== holder.name) return undefined;
  const edge = holder.handoffs.find((candidate) => candidate.toolName === toolName && candidate.name === recorded.to);
  return edge === undefined ? undefined : { edge, from: holder.name };
}

/**
 * Whether an outcome is exactly what a transfer tool answers for a transfer from `from` to `to` (its text, its
 * `metadata.handoff` and nothing else), and the call's arguments the none a transfer tool takes. @internal
 */
export function looksLikeTransfer(outcome: ToolOutcome | undefined, args: unknown, from: string, to: string): boolean {
  return (
    outcome !== undefined &&
    isEmptyObject(args) &&
    JSON.stringify(sortedKeys(outcome)) === JSON.stringify(sortedKeys(transferOutcomeOf(from, to)))
  );
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Reflect.ownKeys(value).length === 0;
}

/** A JSON value with the keys of every object sorted, for a comparison that ignores key order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return Object.fromEntries(entries.map(([key, entry]) => [key, sortedKeys(entry)]));
}

/** The handoff an admitted transfer outcome records, when it is one. @internal */
export function handoffOfOutcome(outcome: ToolOutcome | undefined): Pick<HandoffEntry, 'from' | 'to'> | undefined {
  if (outcome === undefined || !outcome.ok) return undefined;
  const recorded = outcome.metadata?.[HANDOFF_METADATA_KEY];
  if (typeof recorded !== 'object' || recorded === null || Array.isArray(recorded)) return undefined;
  const { from, to } = recorded as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' ? { from, to } : undefined;
}
