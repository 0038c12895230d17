/**
 * `wuwe/model`: the model client seam in detail, for writing a client or a memory: the base client, the
 * stepping and streaming interfaces, usage, stop reasons and message parts, the in-memory conversation
 * memory, and the details of the model errors.
 * @packageDocumentation
 */
export { BaseModelClient } from './base-model-client';
export type { BindableTools } from './base-model-client';
export { canStreamSteps } from './model-stream';
export type { ModelStreamEvent, StreamingModelStepper } from './model-stream';
export { InMemoryMemory } from './memory';
export type { Memory } from './memory';
export type { ModelStepper } from './model-stepper';
export type {
  ModelResponseFormat,
  ModelStopReason,
  ModelToolChoice,
  ModelUsage,
  ProviderContent,
  ToolMessagePart,
  UserContentPart,
} from './model-types';
export type { ModelApiErrorDetails } from './model-api-error';
export type { ModelClientOptionsErrorCode } from './model-client-options-error';
