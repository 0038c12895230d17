import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';

/**
 * The run-level projection policy when none is configured: 64 KiB of UTF-8 and 10,000 estimated
 * tokens. Both ceilings always apply.
 */
export const DEFAULT_TOOL_OUTPUT_PROJECTION: ToolOutputProjectionPolicy = Object.freeze({
  maxBytes: 65_536,
  maxTokens: 10_000,
});
