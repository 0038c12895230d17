/**
 * wuwe: typed LLM tools for TypeScript. This root holds what a program writes in its first hour: the
 * decorators and `defineTool`, tool outcomes and their helpers, the tool contract's options, the runner with
 * its options and results, the model client seam with the scripted model, tool providers and the registry,
 * the in-memory run store, and the error classes with their codes. The rest lives at one subpath by concern:
 * `wuwe/runner`, `wuwe/tools`, `wuwe/contract`, `wuwe/model`, `wuwe/projection`, `wuwe/validation`,
 * `wuwe/durable`, the toolkits (`wuwe/filesystem`, `wuwe/process`, `wuwe/memory`, `wuwe/knowledge`,
 * `wuwe/execution`) and the back-ends (`wuwe/sqlite`, `wuwe/postgres`, `wuwe/anthropic`, `wuwe/openai`,
 * `wuwe/ai-sdk`, `wuwe/tiktoken`, `wuwe/mcp`, `wuwe/nest`, `wuwe/telemetry`, `wuwe/queue`, `wuwe/testing`).
 *
 * Import `reflect-metadata` once at the entry of your program before defining tool classes.
 * This entry loads no optional back-end.
 * @packageDocumentation
 * @module wuwe
 */
export { WuweError } from './errors/wuwe-error';
export { MissingDependencyError } from './errors/optional-dependency';
export { Tool } from './reflect/tool-decorator';
export { Field } from './reflect/field-decorator';
export { Contract } from './reflect/contract-decorator';
export { ToolDefinitionError } from './reflect/tool-definition-error';
export type { ToolDefinitionErrorCode } from './reflect/tool-definition-error';
export type { FieldOptions, ToolOptions } from './reflect/field-options';
export { defineTool } from './tools/define-tool';
export type { DefinedTool, DefinedToolContext, DefineToolOptions } from './tools/define-tool';
export { parseToolArguments } from './tools/parse-tool-arguments';
export { toolDescriptorOf } from './tools/tool-descriptor-of';
export { ToolArgumentError } from './tools/tool-argument-error';
export { ToolFailureError } from './tools/tool-failure-error';
export type { InferSchemaOutput } from './tools/standard-schema';
export type { ToolCallResultOf, ToolsOf, TypedToolCallResult } from './tools/tool-typing';
export { isToolOutcome, standardFailure, toolData, toolFailure, toolText } from './outcome/tool-outcome';
export type { ToolFailureOutcome, ToolOutcome, ToolOutcomeError, ToolSuccessOutcome } from './outcome/tool-outcome';
export { toolImage } from './outcome/tool-image';
export type { ToolImage } from './outcome/tool-image';
export { STANDARD_TOOL_ERROR_CODES, TOOL_ERROR_CATEGORIES } from './outcome/error-codes';
export type { StandardToolErrorCode, ToolErrorCategory } from './outcome/error-codes';
export type { JsonObject, JsonValue } from './outcome/json-value';
export { ToolContractError } from './contract/tool-contract-error';
export type { ToolContractErrorCode } from './contract/tool-contract-error';
export { DEFAULT_TOOL_CONTRACT } from './contract/defaults';
export type {
  ToolApprovalMode,
  ToolContractOptions,
  ToolDescriptor,
  ToolRetryPolicy,
  ToolSideEffect,
} from './contract/tool-descriptor';
export type { LlmTool } from './contract/llm-tool';
export type { JsonSchema } from './contract/json-schema';
export { LlmAgentRunner } from './runner/llm-agent-runner';
export { LlmAgentError } from './runner/runner-error';
export type { LlmAgentErrorCode } from './runner/runner-error';
export { StructuredOutputError } from './runner/structured-output/structured-output-error';
export type { StructuredOutputErrorCode } from './runner/structured-output/structured-output-error';
export { DEFAULT_MAX_STEPS } from './runner/run-steps';
export type {
  InvokeToolCallOptions,
  LlmAgentRunOptions,
  ToolApprovalDecision,
  ToolCallPermission,
  ToolCallRequest,
} from './runner/run-options';
export type { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from './runner/run-result';
export type { LlmAgentRunInput } from './runner/run-input';
export type { LlmAgentRunStream, LlmAgentStreamEvent } from './runner/stream/stream-events';
export type { LlmAgentEvent } from './runner/runner-events';
export { ScriptedModelClient, ScriptedModelError } from './model/scripted-model-client';
export type { ScriptedModelClientOptions, ScriptedReply, ScriptedTurn } from './model/scripted-model-client';
export { ModelApiError } from './model/model-api-error';
export type { ModelApiErrorCode } from './model/model-api-error';
export { ModelClientOptionsError } from './model/model-client-options-error';
export type { ModelClient } from './model/base-model-client';
export type { ChatMessage, ModelRequest, ModelResponse, ModelToolCall } from './model/model-types';
export { ToolRegistry } from './providers/tool-registry';
export type { DependencyContainer, ToolRegistryOptions } from './providers/tool-registry';
export { ReflectedToolProvider } from './providers/reflected-tool-provider';
export type { ReflectedToolContext, ReflectedToolProviderOptions } from './providers/reflected-tool-provider';
export { composeToolProviders } from './providers/composite-tool-provider';
export { ToolProviderError } from './providers/tool-provider-error';
export type { ToolProviderErrorCode } from './providers/tool-provider-error';
export type { ToolProvider } from './providers/tool-provider';
export type { ToolInvocation } from './providers/tool-invocation';
export { MemoryRunStore } from './durable/memory-run-store';
export { RunStoreError } from './durable/run-store-error';
export type { RunStoreErrorCode } from './durable/run-store-error';
export type { RunStore } from './durable/run-store';
export type { AgentRunRecord, AgentRunStatus } from './durable/agent-run-record';
