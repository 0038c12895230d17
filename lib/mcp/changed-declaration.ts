import { ToolDescriptor, ToolSideEffect } from '../contract/tool-descriptor';

const SIDE_EFFECT_ORDER: readonly ToolSideEffect[] = ['none', 'read', 'write', 'destructive'];

/**
 * What makes the declaration an MCP server gives now (`current`) stricter than the one a runner was given
 * (`given`, from an earlier listing, before `list_changed` or a restart), or `undefined` when nothing that the
 * runner enforced before the call is looser than the current declaration. The runner checked the call's
 * arguments, side effect, idempotency and approval against `given`; a call under weaker rules than the server's
 * present ones must not reach the server.
 * @internal
 */
export function stricterDeclaration(given: ToolDescriptor, current: ToolDescriptor): string | undefined {
  if (SIDE_EFFECT_ORDER.indexOf(current.sideEffect) > SIDE_EFFECT_ORDER.indexOf(given.sideEffect))
    return `its side effect is now '${current.sideEffect}' (the run was given '${given.sideEffect}')`;
  if (current.idempotency !== given.idempotency && given.idempotency === 'idempotent')
    return `it is now '${current.idempotency}' (the run was given 'idempotent')`;
  if (current.approval !== given.approval && given.approval !== 'always')
    return `its approval is now '${current.approval}' (the run was given '${given.approval}')`;
  if (JSON.stringify(current.inputSchema) !== JSON.stringify(given.inputSchema))
    return 'its input schema changed, so the arguments were checked against another schema';
  return undefined;
}
