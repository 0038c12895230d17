import { APPROVAL_ORDER, IDEMPOTENCY_ORDER, SIDE_EFFECT_ORDER } from '../contract/contract-order';
import { ToolApprovalMode, ToolDescriptor, ToolIdempotency, ToolSideEffect } from '../contract/tool-descriptor';
import { AgentToolError } from './agent-tool-error';

/** The part of an agent tool's contract derived from its child's tools; a host may only tighten it. */
export interface AgentToolContract {
  readonly sideEffect: ToolSideEffect;
  readonly idempotency: ToolIdempotency;
  readonly approval: ToolApprovalMode;
}

/**
 * The contract of an agent tool from the tools its child run can call: the strongest side effect among them
 * (`none` without tools), `idempotent` only when every one is `idempotent` (a re-run child may call tools with new
 * keys, so `idempotent_with_key` is not enough), and the strongest approval mode among them (`when_destructive`
 * without tools), so a child that can delete is `destructive` and asks for approval.
 */
export function deriveAgentContract(childTools: readonly ToolDescriptor[]): AgentToolContract {
  const strongest = <T>(order: readonly T[], values: readonly T[], none: T): T =>
    values.reduce((best, value) => (order.indexOf(value) > order.indexOf(best) ? value : best), none);
  return {
    sideEffect: strongest(
      SIDE_EFFECT_ORDER,
      childTools.map((tool) => tool.sideEffect),
      'none',
    ),
    idempotency: childTools.every((tool) => tool.idempotency === 'idempotent') ? 'idempotent' : 'non_idempotent',
    approval:
      childTools.length === 0
        ? 'when_destructive'
        : strongest(
            APPROVAL_ORDER,
            childTools.map((tool) => tool.approval),
            'never',
          ),
  };
}

/**
 * The derived contract tightened by the host's choices. A choice weaker than the derived one (a `read` agent whose
 * child can write, `idempotent` for a child with a non-idempotent tool, `never` for one that asks) is refused with
 * {@link AgentToolError} `contract_loosened`.
 */
export function tightenContract(
  name: string,
  derived: AgentToolContract,
  asked: Partial<AgentToolContract> = {},
): AgentToolContract {
  return {
    sideEffect: tightened(name, 'sideEffect', SIDE_EFFECT_ORDER, derived.sideEffect, asked.sideEffect),
    idempotency: tightened(name, 'idempotency', IDEMPOTENCY_ORDER, derived.idempotency, asked.idempotency),
    approval: tightened(name, 'approval', APPROVAL_ORDER, derived.approval, asked.approval),
  };
}

function tightened<T extends string>(
  name: string,
  field: keyof AgentToolContract,
  order: readonly T[],
  derived: T,
  asked: T | undefined,
): T {
  if (asked === undefined) return derived;
  if (!order.includes(asked))
    throw new AgentToolError('invalid_agent_tool', `agent tool '${name}': ${field} must be one of ${order.join(', ')}`);
  if (order.indexOf(asked) < order.indexOf(derived))
    throw new AgentToolError(
      'contract_loosened',
      `agent tool '${name}': ${field} '${asked}' is weaker than '${derived}', derived from the child's tools; a host may tighten an agent tool's contract, never loosen it`,
    );
  return asked;
}
