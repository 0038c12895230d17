import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js' with { 'resolution-mode': 'import' };
import { descriptorFromLlmTool } from '../contract/compile-descriptor';
import { ToolApprovalMode, ToolDescriptor, ToolSideEffect } from '../contract/tool-descriptor';

/** How the tools of one MCP server become wuwe descriptors. */
export interface McpToolContractOptions {
  /** Prepended to every tool name (e.g. `fs_`), to keep names of several servers apart. @default '' */
  readonly toolNamePrefix?: string;
  /** Deadline of one call; when it passes the call is cancelled on the server. @default 30000 */
  readonly timeoutMs?: number;
  /** @default 'when_destructive' (with a missing `destructiveHint`, every tool that is not read-only) */
  readonly approval?: ToolApprovalMode;
}

/**
 * The Tool Contract of an MCP tool, from its annotations, conservatively: what the MCP
 * specification assumes of a missing hint is what wuwe assumes.
 * - `readOnlyHint: true` gives side effect `read`; otherwise `destructiveHint: false` gives `write`,
 *   and a missing or true `destructiveHint` gives `destructive` (so approval applies);
 * - `idempotentHint: true` gives `idempotent`, anything else `non_idempotent` (no retries);
 * - the server's `outputSchema` becomes the contract's, validated strictly against `structuredContent`;
 * - progress notifications are heartbeats (the idle limit is the deadline: progress never extends it).
 */
export function descriptorFromMcpTool(
  tool: McpTool,
  serverName: string,
  options: McpToolContractOptions = {},
): ToolDescriptor {
  const annotations = tool.annotations ?? {};
  const sideEffect: ToolSideEffect =
    annotations.readOnlyHint === true ? 'read' : annotations.destructiveHint === false ? 'write' : 'destructive';
  const timeoutMs = options.timeoutMs ?? 30_000;
  return descriptorFromLlmTool(
    {
      name: `${options.toolNamePrefix ?? ''}${tool.name}`,
      description: tool.description ?? tool.title ?? tool.name,
      inputSchema: tool.inputSchema,
    },
    {
      sideEffect,
      idempotency: annotations.idempotentHint === true ? 'idempotent' : 'non_idempotent',
      ...(options.approval === undefined ? {} : { approval: options.approval }),
      ...(tool.outputSchema === undefined
        ? {}
        : { outputSchema: tool.outputSchema, outputValidation: 'strict' as const }),
      timeoutMs,
      heartbeat: { idleTimeoutMs: timeoutMs },
      metadata: { mcpServer: serverName, mcpTool: tool.name, openWorld: annotations.openWorldHint !== false },
    },
  );
}
