/**
 * The part of an AI SDK language model (`LanguageModelV3` of `@ai-sdk/provider`) that
 * {@link AiSdkModelClient} uses, described without the AI SDK's types so that wuwe's declarations
 * compile where `@ai-sdk/provider` is not installed. Every `LanguageModelV3` fits it: `openai('gpt-4o')`,
 * `anthropic('claude-sonnet-4-5')`, `google(...)`, `ollama(...)`, a `wrapLanguageModel(...)` result,
 * or the AI SDK's `MockLanguageModelV3`.
 */
export interface AiSdkLanguageModel {
  /** The AI SDK specification the model implements; only `'v3'` is supported. */
  readonly specificationVersion: 'v3';
  /** The provider's name, e.g. `'openai.chat'`. */
  readonly provider: string;
  /** The provider's model id, e.g. `'gpt-4o-mini'`. */
  readonly modelId: string;
  /** One non-streaming generation (`LanguageModelV3.doGenerate`). */
  doGenerate(options: AiSdkCallOptions): PromiseLike<unknown>;
  /** One streaming generation (`LanguageModelV3.doStream`): resolves to `{ stream }`. */
  doStream(options: AiSdkCallOptions): PromiseLike<{ readonly stream: AiSdkStreamSource }>;
}

/**
 * The call options {@link AiSdkModelClient} sends (`LanguageModelV3CallOptions`): the prompt, the
 * function tools, the response format, the abort signal and the sampling settings of the client's options.
 */
export interface AiSdkCallOptions {
  /** The conversation, as `LanguageModelV3Prompt` messages. */
  readonly prompt: readonly unknown[];
  /** Function tools (`LanguageModelV3FunctionTool`), when the request has tools. */
  readonly tools?: readonly unknown[];
  /** Which tools the model may or must call (`LanguageModelV3ToolChoice`), when the request has tools and a choice. */
  readonly toolChoice?:
    { readonly type: 'auto' | 'none' | 'required' } | { readonly type: 'tool'; readonly toolName: string };
  /** The request's abort signal, handed to the provider. */
  readonly abortSignal?: AbortSignal;
  /** The most output tokens of one step. */
  readonly maxOutputTokens?: number;
  /** Sampling temperature. */
  readonly temperature?: number;
  /** Custom stop sequences. */
  readonly stopSequences?: string[];
  /** Provider-specific options, by provider name. */
  readonly providerOptions?: AiSdkProviderOptions;
  /** Extra HTTP headers for providers that send HTTP requests. */
  readonly headers?: Record<string, string | undefined>;
  /**
   * The shape of the final text (`{ type: 'json', schema, name, description }`), when the request has a response
   * format.
   */
  readonly responseFormat?:
    | { readonly type: 'text' }
    | { readonly type: 'json'; readonly schema?: unknown; readonly name?: string; readonly description?: string };
}

/**
 * Provider-specific options, by provider name (`SharedV3ProviderOptions`), e.g. `{ openai: { parallelToolCalls: false }
 * }`.
 */
export type AiSdkProviderOptions = Record<string, { [key: string]: AiSdkJsonValue | undefined }>;

/** A JSON value, as provider options carry them. */
export type AiSdkJsonValue =
  null | string | number | boolean | AiSdkJsonValue[] | { [key: string]: AiSdkJsonValue | undefined };

/** The readable stream of stream parts a `doStream` call resolves to (a web `ReadableStream`). */
export interface AiSdkStreamSource {
  /** Locks the stream to a reader. */
  getReader(): AiSdkStreamReader;
}

/** The reader of an {@link AiSdkStreamSource} (a `ReadableStreamDefaultReader`). */
export interface AiSdkStreamReader {
  /** The next stream part, or `done`. */
  read(): Promise<{ readonly done: boolean; readonly value?: unknown }>;
  /** Cancels the stream (closing the provider's connection). */
  cancel(reason?: unknown): Promise<void>;
}
