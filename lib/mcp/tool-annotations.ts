import { ToolDescriptor } from '../contract/tool-descriptor';

/** The MCP tool annotations wuwe derives from a Tool Contract (all are hints to the client). */
export interface McpToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * Whether a tool talks to an open world (the web, other people's systems) or a closed one (a local
 * database, a sandboxed folder). The contract does not say, so the host does: a boolean for every
 * tool, or a function of the descriptor.
 */
export type OpenWorldPolicy = boolean | ((descriptor: ToolDescriptor) => boolean);

/**
 * The annotations of a tool from its contract:
 * - `readOnlyHint` for side effect `none` or `read`;
 * - `destructiveHint` for `destructive` (a `write` tool is not read-only, yet not destructive);
 * - `idempotentHint` only for `idempotent`: an `idempotent_with_key` tool is safe to repeat only with
 *   the key, which wuwe derives per call on the server side, so a client's repeat is a new call;
 * - `openWorldHint` from the host's policy; a boolean `metadata.openWorld` in the contract wins.
 *
 * @param openWorld - @default true (what the MCP specification assumes when the hint is missing)
 */
export function mcpToolAnnotations(descriptor: ToolDescriptor, openWorld: OpenWorldPolicy = true): McpToolAnnotations {
  const declared = descriptor.metadata.openWorld;
  return {
    readOnlyHint: descriptor.sideEffect === 'none' || descriptor.sideEffect === 'read',
    destructiveHint: descriptor.sideEffect === 'destructive',
    idempotentHint: descriptor.idempotency === 'idempotent',
    openWorldHint:
      typeof declared === 'boolean' ? declared : typeof openWorld === 'function' ? openWorld(descriptor) : openWorld,
  };
}
