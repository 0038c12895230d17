export type { JsonObject, JsonPrimitive, JsonValue } from './json-value';
export { DEFAULT_RETRYABLE_CATEGORIES, STANDARD_TOOL_ERROR_CODES, TOOL_ERROR_CATEGORIES } from './error-codes';
export type { StandardToolErrorCode, ToolErrorCategory } from './error-codes';
export { isToolOutcome, normalizeToolOutcome, standardFailure, toolData, toolFailure, toolText } from './tool-outcome';
export type {
  CheckedToolOutcome,
  CompensationState,
  LlmToolResult,
  ToolArtifact,
  ToolFailureOptions,
  ToolFailureOutcome,
  ToolOutcome,
  ToolOutcomeError,
  ToolOutcomeFields,
  ToolSuccessOutcome,
} from './tool-outcome';
export { renderToolMessage, renderableFailure } from './render-tool-message';
export { base64ByteLength, TOOL_IMAGE_MEDIA_TYPES, toolImage, toolImagesProblem } from './tool-image';
export type { ToolImage, ToolImageMediaType } from './tool-image';
