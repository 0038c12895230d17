/**
 * `wuwe/anthropic`: Claude through `@anthropic-ai/sdk` (an optional peer dependency, loaded when a
 * client is constructed).
 * @packageDocumentation
 */
export { AnthropicModelClient } from './anthropic-model-client';
export { DEFAULT_ANTHROPIC_MAX_TOKENS, DEFAULT_ANTHROPIC_MODEL } from './anthropic-model-client-options';
export type {
  AnthropicExtraParams,
  AnthropicMessagesClient,
  AnthropicMessagesRequest,
  AnthropicModelClientOptions,
  ResolvedAnthropicModelClientOptions,
} from './anthropic-model-client-options';
export { ModelApiError } from '../model-api-error';
export type { ModelApiErrorCode, ModelApiErrorDetails } from '../model-api-error';
export { ModelClientOptionsError } from '../model-client-options-error';
export type { ModelClientOptionsErrorCode } from '../model-client-options-error';
export { assistantMessageFromResponse, stepThroughPausedTurns } from './paused-turns';
export type { PausedTurnsResult, StepThroughPausedTurnsOptions } from './paused-turns';
export type { AssistantChatMessage } from '../model-types';
