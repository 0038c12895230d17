export type { JsonSchema } from './json-schema';
export { TOOL_NAME_PATTERN } from './llm-tool';
export type { LlmTool } from './llm-tool';
export type {
  ToolApprovalMode,
  ToolCapabilities,
  ToolCompensationPolicy,
  ToolContractOptions,
  ToolDescriptor,
  ToolHeartbeatPolicy,
  ToolIdempotency,
  ToolOutputClass,
  ToolOutputProjectionPolicy,
  ToolOutputValidationMode,
  ToolResourceVersionPolicy,
  ToolRetryPolicy,
  ToolSideEffect,
} from './tool-descriptor';
export {
  DEFAULT_RESOURCE_VERSION_POLICY,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TOOL_CONTRACT,
  NO_CAPABILITIES,
} from './defaults';
export { ToolContractError } from './tool-contract-error';
export type { ToolContractErrorCode } from './tool-contract-error';
export { MIN_PROJECTION_BYTES, MIN_PROJECTION_TOKENS, checkToolDescriptor, toLlmTool } from './check-descriptor';
export { checkToolContractOptionKeys, descriptorFromLlmTool, requiredCapabilities } from './compile-descriptor';
export { computeRetryDelayMs } from './retry-delay';
