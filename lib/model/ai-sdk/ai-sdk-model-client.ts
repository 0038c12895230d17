import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { BaseModelClient } from '../base-model-client';
import { ModelApiError } from '../model-api-error';
import { ModelStreamEvent, StreamingModelStepper } from '../model-stream';
import { ModelRequest, ModelResponse, ModelResponseFormat, ModelToolChoice } from '../model-types';
import { AiSdkCallOptions, AiSdkLanguageModel, AiSdkStreamReader } from './ai-sdk-language-model';
import {
  AiSdkModelClientOptions,
  ResolvedAiSdkModelClientOptions,
  resolveAiSdkModelClientOptions,
} from './ai-sdk-model-client-options';
import { AiSdkStreamAssembler } from './ai-sdk-stream-assembler';
import { toAiSdkModelApiError } from './map-api-error';
import { toAiSdkPrompt } from './map-prompt';
import { fromAiSdkGenerateResult, isRecord } from './map-response';
import { toStrictSchema } from '../openai/strict-schema';
// An abort rejects with the signal's reason at once (a model may not watch its signal); `mapError` makes it `aborted`.
import { untilAborted } from '../../runner/maybe-promise';

/**
 * A model client (a `ModelStepper` that can also stream its steps) over any AI SDK language model
 * (the `LanguageModelV3` interface of `@ai-sdk/provider`): OpenAI, Anthropic, Google, Mistral,
 * Amazon Bedrock, Groq, Ollama and every other AI SDK provider.
 *
 * ```ts
 * import { createOpenAI } from '@ai-sdk/openai';
 * const model = new AiSdkModelClient(createOpenAI({ apiKey }).chat('gpt-4o-mini'), { maxOutputTokens: 1024 });
 * const result = await model.bindTools(GetWeather).complete("What's the weather in Tokyo?");
 * ```
 *
 * One `step` is one `doGenerate` call and one `streamStep` one `doStream` call: `request.messages`
 * and `request.system` become the `LanguageModelV3Prompt`, `request.tools` function tools with their
 * JSON Schema, and `request.signal` is the call's `abortSignal` (an abort ends the step at once,
 * even when the model does not watch its signal). Every failure is a {@link wuwe!ModelApiError} with the
 * codes of every wuwe client. There are no retries: a provider's `doGenerate` sends one request.
 *
 * What the neutral messages cannot hold (reasoning parts with their signatures, provider metadata,
 * provider-executed tools) is returned as `providerContent` (provider `'ai-sdk'`); the runner stores it
 * with the assistant message, and the client sends it back unchanged on the next steps, in any process.
 *
 * `@ai-sdk/provider` is an optional peer dependency: its types describe the model; nothing of it is
 * loaded at run time.
 */
export class AiSdkModelClient extends BaseModelClient implements StreamingModelStepper {
  /** The model id of the wrapped model, e.g. `'gpt-4o-mini'`. */
  readonly modelName: string;
  /** The checked options, with the model. */
  protected readonly options: ResolvedAiSdkModelClientOptions;

  /**
   * @param model - an AI SDK language model, e.g. `openai('gpt-4o-mini')` or `anthropic('claude-sonnet-4-5')`.
   * @throws {@link wuwe!ModelClientOptionsError} when the model is not a `LanguageModelV3` or an option cannot work.
   */
  constructor(model: AiSdkLanguageModel, options: AiSdkModelClientOptions = {}) {
    super();
    this.options = resolveAiSdkModelClientOptions(model, options);
    this.modelName = model.modelId;
  }

  /** The wrapped AI SDK model. */
  get model(): AiSdkLanguageModel {
    return this.options.model;
  }

  /**
   * Native structured output through the call's `responseFormat` (`{ type: 'json', schema, name,
   * description }`): what the provider does with it is the provider's (OpenAI sends `response_format`,
   * Anthropic `output_config.format`; one without JSON mode warns and ignores it). The runner validates
   * the answer either way; `outputPolicy.mode: 'tool'` gives a final-answer tool instead.
   */
  supportsResponseFormat(format: ModelResponseFormat): boolean {
    return format.type === 'json_schema';
  }

  /** Every tool choice, as the call's `toolChoice` (`auto`, `required`, `none`, or `{ type: 'tool', toolName }`). */
  supportsToolChoice(_choice: ModelToolChoice): boolean {
    return true;
  }

  /**
   * One `doGenerate` call, mapped to a {@link ModelResponse}.
   *
   * @throws {@link wuwe!ModelApiError} when the call cannot be built, the provider rejects it, the network
   * fails, `request.signal` aborts it, or the result is malformed.
   */
  async step(request: ModelRequest): Promise<ModelResponse> {
    const options = this.buildCallOptions(request);
    let result: unknown;
    try {
      result = await untilAborted(this.options.model.doGenerate(options), request.signal);
    } catch (error) {
      throw this.mapError(error, request.signal);
    }
    return fromAiSdkGenerateResult(result, this.options.model.provider);
  }

  /**
   * One `doStream` call: text and tool-call deltas as they arrive, then one `response` event with the
   * whole step, mapped exactly as {@link step} maps `doGenerate`. Stopping the iteration early cancels
   * the provider's stream.
   *
   * @throws {@link wuwe!ModelApiError} (as the iteration's rejection) when the call cannot be built, the
   * provider rejects it or sends an error part, the connection is cut, `request.signal` aborts it, or
   * the stream ends without a `finish` part.
   */
  async *streamStep(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const options = this.buildCallOptions(request);
    const { signal } = request;
    let reader: AiSdkStreamReader;
    try {
      const result = await untilAborted(this.options.model.doStream(options), signal);
      if (!isRecord(result) || !isRecord(result.stream) || typeof result.stream.getReader !== 'function') {
        throw new ModelApiError('malformed_response', {
          provider: this.options.model.provider,
          detail: 'the model returned no stream',
          retryable: false,
        });
      }
      reader = result.stream.getReader();
    } catch (error) {
      throw this.mapError(error, signal);
    }
    const cancel = (): void => void reader.cancel(signal.reason).catch(() => undefined);
    signal.addEventListener('abort', cancel, { once: true });
    const assembler = new AiSdkStreamAssembler(this.options.model.provider);
    let done = false;
    try {
      while (!done) {
        let next: { readonly done: boolean; readonly value?: unknown };
        try {
          next = await untilAborted(reader.read(), signal);
        } catch (error) {
          throw this.mapError(error, signal);
        }
        done = next.done;
        if (!done) yield* assembler.accept(next.value);
      }
      yield { type: 'response', response: assembler.finish() };
    } finally {
      signal.removeEventListener('abort', cancel);
      if (!done) await reader.cancel().catch(() => undefined);
    }
  }

  /**
   * The `LanguageModelV3CallOptions` of one request: `prompt`, `abortSignal`, then `tools`, `toolChoice` and
   * `responseFormat` when there are any, `maxOutputTokens` (the smaller of the option and the request's), and the
   * sampling options, provider options and headers of the client's options.
   *
   * @throws {@link wuwe!ModelApiError} `invalid_request` when a message or tool cannot be mapped.
   */
  protected buildCallOptions(request: ModelRequest): AiSdkCallOptions {
    const { model, system, maxOutputTokens, temperature, stopSequences, providerOptions, headers } = this.options;
    if (request.signal.aborted) throw abortedError(model.provider, request.signal);
    return {
      prompt: toAiSdkPrompt(request.system ?? system, request.messages),
      ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => this.toFunctionTool(tool)) } : {}),
      ...(request.tools.length > 0 && request.toolChoice !== undefined
        ? { toolChoice: aiSdkToolChoice(request.toolChoice) }
        : {}),
      ...(request.responseFormat === undefined
        ? {}
        : { responseFormat: aiSdkResponseFormat(request.responseFormat, model.provider) }),
      abortSignal: request.signal,
      ...outputLimit(maxOutputTokens, request.maxOutputTokens),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(stopSequences !== undefined && stopSequences.length > 0 ? { stopSequences: [...stopSequences] } : {}),
      ...(providerOptions !== undefined ? { providerOptions } : {}),
      ...(headers !== undefined ? { headers: { ...headers } } : {}),
    };
  }

  private toFunctionTool(tool: ModelRequest['tools'][number]): LanguageModelV3FunctionTool {
    if (tool.inputSchema?.type !== 'object') {
      throw new ModelApiError('invalid_request', {
        provider: this.options.model.provider,
        detail: `tool '${tool.name}' has an input schema whose type is not 'object'`,
        retryable: false,
      });
    }
    return {
      type: 'function',
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
    };
  }

  private mapError(error: unknown, signal: AbortSignal): unknown {
    return toAiSdkModelApiError(error, this.options.model.provider, signal) ?? error;
  }
}

/**
 * `LanguageModelV3CallOptions.responseFormat` of a response format. OpenAI providers (`openai.*`) send it
 * with `strict: true`, so the schema goes in its strict form when it has one (every property required,
 * optional ones nullable: the runner reads a `null` sent for one as absent).
 */
function aiSdkResponseFormat(
  format: ModelResponseFormat,
  provider: string,
): NonNullable<AiSdkCallOptions['responseFormat']> {
  const schema = provider.startsWith('openai') ? (toStrictSchema(format.schema) ?? format.schema) : format.schema;
  return {
    type: 'json',
    schema,
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
  };
}

function abortedError(provider: string, signal: AbortSignal): ModelApiError {
  return new ModelApiError('aborted', {
    provider,
    detail: 'the request was aborted',
    retryable: false,
    cause: signal.reason,
  });
}

/** `LanguageModelV3CallOptions.toolChoice` of a tool choice. */
function aiSdkToolChoice(choice: ModelToolChoice): NonNullable<AiSdkCallOptions['toolChoice']> {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.tool };
}

/** `maxOutputTokens`: the smaller of the client's option and the request's limit, absent when neither is set. */
function outputLimit(option: number | undefined, requested: number | undefined): { maxOutputTokens?: number } {
  const limit = option === undefined ? requested : requested === undefined ? option : Math.min(option, requested);
  return limit === undefined ? {} : { maxOutputTokens: limit };
}
