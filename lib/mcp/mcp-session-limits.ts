import { McpSetupError } from './mcp-setup-error';

/** Bounds on the sessions of an {@link McpHttpHandler}. */
export interface McpSessionLimits {
  /**
   * Most sessions open at once; a client that would open one more gets 503 (after idle ones are closed). @default 1000
   */
  readonly maxSessions?: number;
  /**
   * A session with no request for this long (and no open event stream) is closed; its client gets the
   * 404 of an unknown session and starts a new one. @default 1_800_000 (30 minutes)
   */
  readonly sessionIdleTimeoutMs?: number;
}

/** The defaults of {@link McpSessionLimits}. */
export const DEFAULT_MCP_SESSION_LIMITS: Readonly<Required<McpSessionLimits>> = Object.freeze({
  maxSessions: 1000,
  sessionIdleTimeoutMs: 1_800_000,
});

/**
 * The limits with their defaults filled.
 * @throws McpSetupError `invalid_server_options` for a limit that is not a positive integer.
 */
export function resolveMcpSessionLimits(limits: McpSessionLimits): Readonly<Required<McpSessionLimits>> {
  const resolved = {
    maxSessions: limits.maxSessions ?? DEFAULT_MCP_SESSION_LIMITS.maxSessions,
    sessionIdleTimeoutMs: limits.sessionIdleTimeoutMs ?? DEFAULT_MCP_SESSION_LIMITS.sessionIdleTimeoutMs,
  };
  for (const [name, value] of Object.entries(resolved))
    if (!Number.isSafeInteger(value) || value < 1)
      throw new McpSetupError('invalid_server_options', `${name} must be a positive integer, got ${String(value)}`);
  return Object.freeze(resolved);
}
