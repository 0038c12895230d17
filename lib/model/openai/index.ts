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
