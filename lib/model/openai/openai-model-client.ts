import type OpenAISdk from 'openai';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import { BaseModelClient } from '../base-model-client';
import { ModelApiError } from '../model-api-error';
import { ModelStreamEvent, StreamingModelStepper } from '../model-stream';
import { requestSignal } from '../request-signal';
import { ModelRequest, ModelResponse, ModelResponseFormat, ModelToolChoice } from '../model-types';
import { buildChatBody } from './chat-request';
import { fromChatCompletion } from './chat-response';
import { ChatStreamReader } from './chat-stream';
import { malformed, OPENAI_PROVIDER, toOpenAIModelApiError } from './map-api-error';
import { OpenAIToolDefinition, strictToolNames, toOpenAITools } from './map-tools';
import {
  OpenAIApiClient,
  OpenAIModelClientOptions,
  OpenAIRequestBody,
  ResolvedOpenAIModelClientOptions,
  resolveOpenAIModelClientOptions,
} from './openai-model-client-options';
import { buildResponsesBody } from './responses-request';
import { fromResponsesResponse } from './responses-response';
import { ResponsesStreamReader } from './responses-stream';

/**
 * A model client backed by OpenAI, or any OpenAI-compatible server (vLLM, Ollama, llama.cpp) through
 * `baseURL`, over the official `openai` SDK: Chat Completions (`api: 'chat'`, the default) or the
 * Responses API (`api: 'responses'`), whole (`step`) or streamed (`streamStep`).
 *
 * ```ts
 * const model = new OpenAIModelClient({ model: 'gpt-5-mini' }); // reads OPENAI_API_KEY
 * const local = new OpenAIModelClient({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama', model: 'qwen3' });
 * const strict = new OpenAIModelClient({ api: 'responses', strict: true });
 * ```
 *
 * `openai` is an optional peer dependency: it is loaded when a client is constructed without a `client`
 * option, and a {@link wuwe!MissingDependencyError} names it when it is not installed.
 *
 * One step is one API request. Tool calls keep their argument text (the runner decodes and validates
 * it); parallel calls come in order. A refusal is stop reason `refusal` (its message is the text); an
 * answer cut at the token limit is `max_tokens`, whose tool calls the runner never runs. With
 * `strict`, tools are sent under OpenAI's strict rules and their calls are marked `nullsAreAbsent`.
 * Responses API reasoning items are kept as `providerContent` and sent back with the turn. Every
 * failure is a {@link wuwe!ModelApiError} with the same codes as the Anthropic client; retries are the
 * SDK's (its `maxRetries`, default 2).
 */
export class OpenAIModelClient extends BaseModelClient implements StreamingModelStepper {
  /** The model every request names (`model` option). */
  readonly modelName: string;
  /** The checked options, every default filled. */
  protected readonly options: ResolvedOpenAIModelClientOptions;

  /**
   * @throws {@link wuwe!ModelClientOptionsError} when an option cannot work, or when neither `client`,
   * `apiKey` nor the `OPENAI_API_KEY` environment variable gives an API key.
   * @throws {@link wuwe!MissingDependencyError} when no `client` is given and `openai` is not installed.
   */
  constructor(options: OpenAIModelClientOptions = {}) {
    super();
    this.options = resolveOpenAIModelClientOptions(options, (settings) => {
      const { default: OpenAI } = loadOptionalDependency<{ default: typeof OpenAISdk }>('openai', 'OpenAIModelClient');
      return new OpenAI(settings);
    });
    this.modelName = this.options.model;
  }

  /** The SDK client requests go through: the one passed in, or the one created from the options. */
  get client(): OpenAIApiClient {
    return this.options.client;
  }

  /** Which API requests go to. */
  get api(): 'chat' | 'responses' {
    return this.options.api;
  }

  /**
   * Native structured output for every schema: `response_format` (Chat Completions) or `text.format`
   * (Responses), strict when the schema has a strict form (see `toOpenAIJsonSchemaFormat`). A compatible
   * server without it needs `outputPolicy.mode: 'tool'`.
   */
  supportsResponseFormat(format: ModelResponseFormat): boolean {
    return format.type === 'json_schema';
  }

  /** Every tool choice, as `tool_choice` (`auto`, `required`, `none`, or one function by name). */
  supportsToolChoice(_choice: ModelToolChoice): boolean {
    return true;
  }

  /**
   * Sends one request and maps the whole answer.
   *
   * @throws {@link wuwe!ModelApiError} when the request cannot be built, the API rejects it, the network
   * fails, `request.signal` aborts it, or the answer is malformed.
   */
  async step(request: ModelRequest): Promise<ModelResponse> {
    const tools = toOpenAITools(request.tools, this.options.strict);
    const body = await this.send(this.buildBody(request, tools, false), request.signal);
    const strictTools = strictToolNames(tools);
    return this.options.api === 'chat'
      ? fromChatCompletion(body, strictTools)
      : fromResponsesResponse(body, strictTools);
  }

  /**
   * Sends one streaming request: text and tool-call deltas as they arrive, then one `response` event
   * with the whole answer, exactly as {@link OpenAIModelClient.step} maps it. Stopping the iteration
   * early cancels the request.
   *
   * @throws {@link wuwe!ModelApiError} as `step` does; `aborted` when `request.signal` aborts mid-stream,
   * `connection` when the connection is cut, `malformed_response` when the stream ends unfinished.
   */
  async *streamStep(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const tools = toOpenAITools(request.tools, this.options.strict);
    const own = requestSignal(request.signal);
    const stream = await this.send(this.buildBody(request, tools, true), request.signal, own, false);
    const strictTools = strictToolNames(tools);
    const reader =
      this.options.api === 'chat' ? new ChatStreamReader(strictTools) : new ResponsesStreamReader(strictTools);
    try {
      if (!isAsyncIterable(stream)) throw malformed('the streaming request did not answer with a stream');
      // Once aborted, chunks the SDK had already read are not passed on: the iteration ends with the abort.
      reading: for await (const chunk of stream) {
        for (const event of reader.read(chunk)) {
          if (request.signal.aborted) break reading;
          yield event;
        }
      }
    } catch (error) {
      throw this.mapError(error, request.signal);
    } finally {
      own.release();
    }
    // The SDK ends a stream quietly when its request is aborted: an unfinished stream of an aborted request is an
    // abort.
    if (request.signal.aborted) throw this.mapError(request.signal.reason, request.signal);
    yield { type: 'response', response: reader.finish() };
  }

  /**
   * The request body of one step for the configured API (see `buildChatBody` and `buildResponsesBody`).
   *
   * @throws {@link wuwe!ModelApiError} `invalid_request` when a tool cannot be mapped.
   */
  protected buildBody(
    request: ModelRequest,
    tools: readonly OpenAIToolDefinition[],
    stream: boolean,
  ): OpenAIRequestBody {
    return this.options.api === 'chat'
      ? buildChatBody(this.options, request, tools, stream)
      : buildResponsesBody(this.options, request, tools, stream);
  }

  /**
   * Sends one request under a signal of its own (see `requestSignal`), released when `release` is true (a whole answer)
   * or by the stream's reader.
   */
  private async send(
    body: OpenAIRequestBody,
    signal: AbortSignal,
    own = requestSignal(signal),
    release = true,
  ): Promise<unknown> {
    const { client, api } = this.options;
    try {
      const options = { signal: own.signal };
      return await (api === 'chat'
        ? client.chat.completions.create(body, options)
        : client.responses.create(body, options));
    } catch (error) {
      own.release();
      throw this.mapError(error, signal);
    } finally {
      if (release) own.release();
    }
  }

  private mapError(error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) {
      return new ModelApiError('aborted', {
        provider: OPENAI_PROVIDER,
        detail: 'the request was aborted',
        retryable: false,
        cause: error,
      });
    }
    return toOpenAIModelApiError(error, signal) ?? error;
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}
