import { McpSetupError } from './mcp-setup-error';

/**
 * What a consumed MCP server may send in its tool list. Every tool description and schema reaches
 * every model request, so a server cannot be allowed to make them as large as it likes.
 */
export interface McpToolListLimits {
  /**
   * Most tools one listing may name (all pages together); more is `McpSetupError` `tool_list_too_large`. @default 1000
   */
  readonly maxTools?: number;
  /**
   * Longest tool description, in UTF-16 code units; a longer one refuses the tool (`description_too_long`). @default
   * 8192
   */
  readonly maxDescriptionLength?: number;
  /**
   * Largest input or output schema, in bytes of its JSON text; a larger one refuses the tool (`schema_too_large`).
   * @default 65536
   */
  readonly maxSchemaBytes?: number;
  /**
   * Most bytes of a stdio server's output buffered at once (one message must fit); more closes the
   * connection: `tool_list_unreadable` while listing, `unavailable` or `outcome_unknown` for a call.
   * @default 10485760 (10 MiB, the MCP SDK's own bound)
   */
  readonly maxMessageBytes?: number;
}

/** The defaults of {@link McpToolListLimits}. */
export const DEFAULT_MCP_TOOL_LIST_LIMITS: Readonly<Required<McpToolListLimits>> = Object.freeze({
  maxTools: 1000,
  maxDescriptionLength: 8192,
  maxSchemaBytes: 65_536,
  maxMessageBytes: 10 * 1024 * 1024,
});

/**
 * The limits with their defaults filled, frozen.
 * @throws McpSetupError `invalid_server_options` for a limit that is not a positive integer.
 */
export function resolveMcpToolListLimits(limits: McpToolListLimits = {}): Readonly<Required<McpToolListLimits>> {
  const resolved: { -readonly [K in keyof McpToolListLimits]-?: number } = { ...DEFAULT_MCP_TOOL_LIST_LIMITS };
  for (const name of Object.keys(DEFAULT_MCP_TOOL_LIST_LIMITS) as (keyof McpToolListLimits)[]) {
    const value = limits[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new McpSetupError(
        'invalid_server_options',
        `limits.${name} must be a positive integer, got ${String(value)}`,
      );
    resolved[name] = value;
  }
  return Object.freeze(resolved);
}
