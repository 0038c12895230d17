export { ToolArgumentError, formatIssues } from './tool-argument-error';
export { makeLlmTool } from './make-llm-tool';
export { parseToolArguments, tryParseToolArguments } from './parse-tool-arguments';
export type { ParseToolArgumentsOptions, ParsedToolArguments } from './parse-tool-arguments';
export { ToolFailureError } from './tool-failure-error';
export { thrownToToolOutcome, toToolOutcome } from './to-tool-outcome';
export { invokeReflectedTool } from './invoke-reflected-tool';
export type { InvocableTool, InvokeReflectedToolOptions } from './invoke-reflected-tool';
export { toolDescriptorOf } from './tool-descriptor-of';
export { constructInstance } from './build-instance';
export type { InstanceFactory } from './build-instance';
export { defineTool } from './define-tool';
export type { DefinedTool, DefinedToolContext, DefinedToolInstance, DefineToolOptions } from './define-tool';
export type {
  ToolCallResultOf,
  ToolNameOf,
  ToolOutcomeOf,
  ToolOutputData,
  ToolsOf,
  TypedToolCallResult,
  UnknownToolCallResult,
} from './tool-typing';
export { isStandardSchema } from './standard-schema';
export type {
  InferSchemaOutput,
  StandardJsonSchemaV1,
  StandardSchemaIssue,
  StandardSchemaProps,
  StandardSchemaResult,
  StandardSchemaV1,
} from './standard-schema';
