/**
 * `wuwe/contract`: the tool contract in detail: capabilities, compensation, heartbeats, idempotency,
 * output classes, output projection and resource versions; the defaults; descriptor checks and the
 * conversion from a plain `LlmTool`; the retry delay arithmetic; the tool name pattern.
 * @packageDocumentation
 */
export { checkToolDescriptor } from './check-descriptor';
export { computeRetryDelayMs } from './retry-delay';
export { DEFAULT_RESOURCE_VERSION_POLICY, DEFAULT_RETRY_POLICY, NO_CAPABILITIES } from './defaults';
export { descriptorFromLlmTool } from './compile-descriptor';
export { TOOL_NAME_PATTERN } from './llm-tool';
export { DEFAULT_RETRYABLE_CATEGORIES } from '../outcome/error-codes';
export type {
  ToolCapabilities,
  ToolCompensationPolicy,
  ToolHeartbeatPolicy,
  ToolIdempotency,
  ToolOutputClass,
  ToolOutputProjectionPolicy,
  ToolOutputValidationMode,
  ToolResourceVersionPolicy,
} from './tool-descriptor';
