export type {
  ChatMessage,
  ModelRequest,
  ModelResponse,
  ModelResponseFormat,
  ModelStopReason,
  ModelToolCall,
  ModelUsage,
  ToolMessagePart,
} from './model-types';
export type { ModelStepper } from './model-stepper';
export { InMemoryMemory } from './memory';
export type { Memory } from './memory';
export { BaseModelClient, toProvider } from './base-model-client';
export type { BindableTools, ModelClient } from './base-model-client';
export { ScriptedModelClient, ScriptedModelError } from './scripted-model-client';
export type { ScriptedModelClientOptions, ScriptedReply, ScriptedTurn } from './scripted-model-client';
export {
  AnthropicModelClient,
  assistantMessageFromResponse,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL,
  ModelApiError,
  ModelClientOptionsError,
  stepThroughPausedTurns,
} from './anthropic';
export type {
  AnthropicExtraParams,
  AnthropicMessagesClient,
  AnthropicMessagesRequest,
  AnthropicModelClientOptions,
  AssistantChatMessage,
  ModelApiErrorCode,
  ModelApiErrorDetails,
  ModelClientOptionsErrorCode,
  PausedTurnsResult,
  ResolvedAnthropicModelClientOptions,
  StepThroughPausedTurnsOptions,
} from './anthropic';
export { canStreamSteps } from './model-stream';
export type { ModelStreamEvent, StreamingModelStepper } from './model-stream';
