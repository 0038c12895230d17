/**
 * `wuwe/anthropic`: Claude through `@anthropic-ai/sdk` (an optional peer dependency, loaded when a
 * client is constructed).
 * @packageDocumentation
 */
export { AnthropicModelClient } from './anthropic-model-client';
export { assistantMessageFromResponse, stepThroughPausedTurns } from './paused-turns';
export type { PausedTurnsResult, StepThroughPausedTurnsOptions } from './paused-turns';
export type { AssistantChatMessage } from '../model-types';
export { DEFAULT_ANTHROPIC_MAX_TOKENS, DEFAULT_ANTHROPIC_MODEL } from './anthropic-model-client-options';
export type {
  AnthropicExtraParams,
  AnthropicMessagesClient,
  AnthropicMessagesRequest,
  AnthropicModelClientOptions,
  ResolvedAnthropicModelClientOptions,
} from './anthropic-model-client-options';
