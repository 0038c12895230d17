/**
 * `wuwe/tools`: tools and providers in detail: building an `LlmTool` from a class, invoking a reflected
 * tool directly, reading decorator metadata back, Standard Schema types, the typing helpers of tool calls,
 * the composite provider and its change events, the registry's errors, and the parts of a tool outcome
 * (artifacts, compensation state, normalization and the rendered Tool message).
 * @packageDocumentation
 */
export { makeLlmTool } from './make-llm-tool';
export { invokeReflectedTool } from './invoke-reflected-tool';
export type { InvocableTool, InvokeReflectedToolOptions } from './invoke-reflected-tool';
export { toToolOutcome } from './to-tool-outcome';
export { tryParseToolArguments } from './parse-tool-arguments';
export type { ParsedToolArguments, ParseToolArgumentsOptions } from './parse-tool-arguments';
export type { DefinedToolInstance } from './define-tool';
export type { InstanceFactory } from './build-instance';
export type {
  StandardJsonSchemaV1,
  StandardSchemaIssue,
  StandardSchemaProps,
  StandardSchemaResult,
  StandardSchemaV1,
} from './standard-schema';
export type { ToolNameOf, ToolOutcomeOf, ToolOutputData, UnknownToolCallResult } from './tool-typing';
export { CompositeToolProvider } from '../providers/composite-tool-provider';
export { ToolsChangedEmitter } from '../providers/tools-changed-emitter';
export { SharedToolInstanceError, ToolContainerError } from '../providers/tool-registry';
export type { CompensationResult, ToolProviderCapabilities, ToolsChangedListener } from '../providers/tool-provider';
export type { HeartbeatProgress, ToolDeadline } from '../providers/tool-invocation';
export { normalizeToolOutcome } from '../outcome/tool-outcome';
export type {
  CheckedToolOutcome,
  CompensationState,
  LlmToolResult,
  ToolArtifact,
  ToolFailureOptions,
  ToolOutcomeFields,
} from '../outcome/tool-outcome';
export { renderToolMessage } from '../outcome/render-tool-message';
export { TOOL_IMAGE_MEDIA_TYPES } from '../outcome/tool-image';
export type { ToolImageMediaType } from '../outcome/tool-image';
export type { JsonPrimitive } from '../outcome/json-value';
export { fieldTraits } from '../reflect/field-decorator';
export { toolContract } from '../reflect/contract-decorator';
export type { ClassType, FieldItemType, FieldTraits, FieldTypeOption, ScalarTypeName } from '../reflect/field-options';
export type { Checked, FieldCheck, FieldDecorator } from '../reflect/field-check';
export type { InvocableToolClass, ToolDecorator } from '../reflect/tool-decorator';
