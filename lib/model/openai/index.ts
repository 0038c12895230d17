/**
 * `wuwe/openai`: OpenAI and OpenAI-compatible servers through the `openai` SDK (an optional peer
 * dependency, loaded when a client is constructed), over Chat Completions or the Responses API.
 * @packageDocumentation
 */
export { OpenAIModelClient } from './openai-model-client';
export { DEFAULT_OPENAI_MODEL } from './openai-model-client-options';
export type {
  OpenAIApi,
  OpenAIApiClient,
  OpenAIExtraParams,
  OpenAIModelClientOptions,
  OpenAIRequestBody,
  OpenAIRequestOptions,
  ResolvedOpenAIModelClientOptions,
} from './openai-model-client-options';
export type { OpenAIToolDefinition } from './map-tools';
export { toStrictSchema } from './strict-schema';
export { MissingDependencyError } from '../../errors/optional-dependency';
export { ModelApiError } from '../model-api-error';
export type { ModelApiErrorCode, ModelApiErrorDetails } from '../model-api-error';
export { ModelClientOptionsError } from '../model-client-options-error';
export type { ModelClientOptionsErrorCode } from '../model-client-options-error';
export type { ModelStreamEvent, StreamingModelStepper } from '../model-stream';
