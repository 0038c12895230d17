/**
 * `wuwe/ai-sdk`: any AI SDK language model (`LanguageModelV3` of `@ai-sdk/provider`, an optional
 * peer dependency whose types describe the model; nothing of it is loaded at run time).
 * @packageDocumentation
 */
export { AiSdkModelClient } from './ai-sdk-model-client';
export type { AiSdkModelClientOptions, ResolvedAiSdkModelClientOptions } from './ai-sdk-model-client-options';
export type {
  AiSdkCallOptions,
  AiSdkJsonValue,
  AiSdkLanguageModel,
  AiSdkProviderOptions,
  AiSdkStreamReader,
  AiSdkStreamSource,
} from './ai-sdk-language-model';
export { fromAiSdkFinishReason } from './map-finish-reason';
