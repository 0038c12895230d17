import { APPROVAL_ORDER, IDEMPOTENCY_ORDER, SIDE_EFFECT_ORDER } from '../contract/contract-order';
import { ToolContractError } from '../contract/tool-contract-error';
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

/** The keys an agent tool's `contract` may have: the derived fields, which it may tighten. */
const AGENT_CONTRACT_KEYS: readonly string[] = [
  'sideEffect',
  'idempotency',
  'approval',
] satisfies readonly (keyof AgentToolContract)[];

/**
 * The derived contract tightened by the host's choices. A choice weaker than the derived one (a `read` agent whose
 * child can write, `idempotent` for a child with a non-idempotent tool, `never` for one that asks) is refused with
 * {@link AgentToolError} `contract_loosened`; a string outside a field's vocabulary with `invalid_agent_tool`.
 * Options `@Contract` would refuse are refused as it does (`ToolContractError` `invalid_contract`, listing each
 * problem): options that are no plain object (an array, a class instance, an object inheriting its fields), a key
 * other than `sideEffect`, `idempotency` and `approval` (a typo, a `ToolContractOptions` key such as `maxCalls` that
 * an agent tool does not take, an own `__proto__` key from JSON, a symbol), a value that is no string.
 */
export function tightenContract(
  name: string,
  derived: AgentToolContract,
  options: Partial<AgentToolContract> = {},
): AgentToolContract {
  const asked = checkedContract(name, options);
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

/** The fields of an agent tool's contract options, its keys and the types of its values checked. */
function checkedContract(name: string, options: unknown): Partial<AgentToolContract> {
  if (!isPlainObject(options))
    throw new ToolContractError('invalid_contract', name, [
      "an agent tool's contract options must be a plain object (no array, no class instance, nothing inherited)",
    ]);
  const fields = options as Record<string, unknown>;
  const problems = Reflect.ownKeys(options).flatMap((key) => {
    if (typeof key !== 'string' || !AGENT_CONTRACT_KEYS.includes(key))
      return [
        `unknown contract option '${String(key)}' (an agent tool's contract takes ${AGENT_CONTRACT_KEYS.join(', ')})`,
      ];
    const value = fields[key];
    return value === undefined || typeof value === 'string' ? [] : [`${key} must be a string`];
  });
  if (problems.length > 0) throw new ToolContractError('invalid_contract', name, problems);
  // Own fields only: a field on Object.prototype is never read as the host's choice.
  const own = (key: keyof AgentToolContract): unknown =>
    Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
  return {
    sideEffect: own('sideEffect') as ToolSideEffect | undefined,
    idempotency: own('idempotency') as ToolIdempotency | undefined,
    approval: own('approval') as ToolApprovalMode | undefined,
  };
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
