import { APPROVAL_ORDER, IDEMPOTENCY_ORDER, isStricter, SIDE_EFFECT_ORDER } from '../contract/contract-order';
import { ToolDescriptor } from '../contract/tool-descriptor';

/**
 * What makes the declaration an MCP server gives now (`current`) stricter than the one a runner was given
 * (`given`, from an earlier listing, before `list_changed` or a restart), or `undefined` when nothing that the
 * runner enforced before the call is looser than the current declaration. The runner checked the call's
 * arguments, side effect, idempotency and approval against `given`; a call under weaker rules than the server's
 * present ones must not reach the server.
 * @internal
 */
export function stricterDeclaration(given: ToolDescriptor, current: ToolDescriptor): string | undefined {
  if (isStricter(SIDE_EFFECT_ORDER, current.sideEffect, given.sideEffect))
    return `its side effect is now '${current.sideEffect}' (the run was given '${given.sideEffect}')`;
  if (isStricter(IDEMPOTENCY_ORDER, current.idempotency, given.idempotency))
    return `it is now '${current.idempotency}' (the run was given '${given.idempotency}')`;
  if (isStricter(APPROVAL_ORDER, current.approval, given.approval))
    return `its approval is now '${current.approval}' (the run was given '${given.approval}')`;
  if (JSON.stringify(current.inputSchema) !== JSON.stringify(given.inputSchema))
    return 'its input schema changed, so the arguments were checked against another schema';
  return undefined;
}
