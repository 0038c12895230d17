import type AnthropicSdk from '@anthropic-ai/sdk';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import { BaseModelClient } from '../base-model-client';
import { ModelApiError } from '../model-api-error';
import { ModelStreamEvent, StreamingModelStepper } from '../model-stream';
import { requestSignal } from '../request-signal';
import { ModelRequest, ModelResponse, ModelResponseFormat, ModelToolChoice } from '../model-types';
import {
  AnthropicMessagesClient,
  AnthropicMessagesRequest,
  AnthropicModelClientOptions,
  ResolvedAnthropicModelClientOptions,
  resolveAnthropicModelClientOptions,
} from './anthropic-model-client-options';
import { anthropicProviderContent, AnthropicTurnReplay, storedAnthropicContent } from './anthropic-turn-replay';
import { toAnthropicModelApiError } from './map-api-error';
import { toAnthropicMessages } from './map-messages';
import { fromAnthropicMessage } from './map-response';
import { AnthropicStreamAssembler } from './map-stream';
import { toAnthropicToolChoice, toAnthropicTools } from './map-tools';
import { toClaudeOutputFormat } from './output-format';

/**
 * A {@link model!ModelStepper} backed by Claude through the official `@anthropic-ai/sdk` Messages API
 * (`POST /v1/messages`): `step` sends one request and waits for the whole answer, `streamStep` streams
 * it (`stream: true`), which `runner.stream()` uses.
 *
 * ```ts
 * const model = new AnthropicModelClient(); // reads ANTHROPIC_API_KEY
 * const custom = new AnthropicModelClient({ client: new Anthropic({ baseURL, maxRetries: 4 }), maxTokens: 2048 });
 * ```
 *
 * `@anthropic-ai/sdk` is an optional peer dependency: it is loaded when a client is constructed without
 * a `client` option, and a {@link wuwe!MissingDependencyError} names it when it is not installed. Without a
 * `client` or `apiKey` option, `ANTHROPIC_API_KEY` must be set: the constructor says so at once
 * rather than on the first request.
 *
 * One `step` is one API request: `request.tools`, `request.messages` and `request.system` are mapped
 * to the Messages API, `request.signal` is handed to the SDK, and the answer is mapped back to a
 * {@link ModelResponse}. Every failure is a {@link wuwe!ModelApiError} with a stable code. Retries are the
 * SDK's (its `maxRetries`, default 2): the client never changes them.
 *
 * A response with stop reason `pause_turn` is an unfinished turn: send it back as the last assistant
 * message and step again (see {@link stepThroughPausedTurns}). The client remembers turns whose content
 * the neutral messages cannot hold (thinking, server tool blocks) and sends them back unchanged.
 */
export class AnthropicModelClient extends BaseModelClient implements StreamingModelStepper {
  /** The model every request names (`model` option). */
  readonly modelName: string;
  /** The checked options, every default filled. */
  protected readonly options: ResolvedAnthropicModelClientOptions;
  private readonly replay = new AnthropicTurnReplay();

  /**
   * @throws {@link wuwe!ModelClientOptionsError} when an option cannot work, or when neither `client`,
   * `apiKey` nor the `ANTHROPIC_API_KEY` environment variable gives an API key.
   * @throws {@link wuwe!MissingDependencyError} when no `client` is given and `@anthropic-ai/sdk` is not installed.
   */
  constructor(options: AnthropicModelClientOptions = {}) {
    super();
    this.options = resolveAnthropicModelClientOptions(options, (apiKey) => {
      const { default: Anthropic } = loadOptionalDependency<{ default: typeof AnthropicSdk }>(
        '@anthropic-ai/sdk',
        'AnthropicModelClient',
      );
      return new Anthropic(apiKey === undefined ? {} : { apiKey });
    });
    this.modelName = this.options.model;
  }

  /** The SDK client requests go through: the one passed in, or the one created from the API key. */
  get client(): AnthropicMessagesClient {
    return this.options.client;
  }

  /**
   * Native structured output (`output_config.format`) for every schema Claude's structured outputs can
   * express (see `toClaudeOutputSchema`); a record or map field has no such form, so such an `output`
   * gets the final-answer tool.
   */
  supportsResponseFormat(format: ModelResponseFormat): boolean {
    return toClaudeOutputFormat(format) !== undefined;
  }

  /** Every tool choice: `auto`, `required` (`any`), `none` and `{ tool }` (`tool`). */
  supportsToolChoice(_choice: ModelToolChoice): boolean {
    return true;
  }

  /**
   * Sends one Messages API request and maps the answer.
   *
   * @throws {@link wuwe!ModelApiError} when the request cannot be built, the API rejects it, the network
   * fails, `request.signal` aborts it, or the answer is malformed.
   */
  async step(request: ModelRequest): Promise<ModelResponse> {
    const params = this.buildParams(request);
    let body: unknown;
    const own = requestSignal(request.signal);
    try {
      body = await this.options.client.messages.create(params, { signal: own.signal });
    } catch (error) {
      throw toAnthropicModelApiError(error, request.signal) ?? error;
    } finally {
      own.release();
    }
    return this.mapAnswer(body);
  }

  /**
   * Sends one Messages API request with `stream: true`: yields text deltas, each `tool_use` block's
   * start and its input JSON deltas as they arrive, then the whole answer as `step` would have
   * returned it. A stream cut before `message_stop` is a `connection` error (retryable); an `error`
   * event is mapped like an HTTP error of its type; an abort is `aborted`.
   *
   * @throws {@link wuwe!ModelApiError} as `step` does, and for a stream that fails midway.
   */
  async *streamStep(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const params = { ...this.buildParams(request), stream: true };
    const assembler = new AnthropicStreamAssembler();
    const own = requestSignal(request.signal);
    try {
      const events = await this.options.client.messages.create(params, { signal: own.signal });
      if (!isAsyncIterable(events))
        throw new ModelApiError('malformed_response', {
          provider: 'anthropic',
          detail: 'a streaming request did not answer with a stream of events',
          retryable: false,
        });
      for await (const raw of events) {
        // Events already received are not delivered after an abort; nor does the SDK's quiet end pass for an answer.
        if (request.signal.aborted) break;
        yield* assembler.add(raw);
      }
    } catch (error) {
      throw toAnthropicModelApiError(error, request.signal) ?? error;
    } finally {
      own.release();
    }
    if (request.signal.aborted)
      throw new ModelApiError('aborted', {
        provider: 'anthropic',
        detail: 'the request was aborted',
        retryable: false,
      });
    yield { type: 'response', response: this.mapAnswer(assembler.finish()) };
  }

  /** Maps a whole answer and remembers the content the neutral messages cannot hold, to send it back. */
  private mapAnswer(body: unknown): ModelResponse {
    const { response, content } = fromAnthropicMessage(body);
    this.replay.remember(response.toolCalls, response.text, content);
    const providerContent = anthropicProviderContent(content);
    return providerContent === undefined ? response : { ...response, providerContent };
  }

  /**
   * The Messages API body of one request: `model`, `max_tokens`, `messages`, then `system`, `tools`,
   * `tool_choice`, `temperature`, `stop_sequences` and `output_config.format` (the response format) when there are
   * any, and the `extraParams` option; `max_tokens` is the request's `maxOutputTokens` when that is smaller.
   *
   * @throws {@link wuwe!ModelApiError} `invalid_request` when a message or tool cannot be mapped.
   */
  protected buildParams(request: ModelRequest): AnthropicMessagesRequest {
    const { model, maxTokens, temperature, stopSequences, extraParams } = this.options;
    const system = request.system ?? this.options.system;
    return {
      ...extraParams,
      model,
      max_tokens: request.maxOutputTokens === undefined ? maxTokens : Math.min(maxTokens, request.maxOutputTokens),
      messages: toAnthropicMessages(
        request.messages,
        (message) => this.replay.find(message) ?? storedAnthropicContent(message),
      ),
      ...(system !== undefined && system.length > 0 ? { system } : {}),
      ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
      ...(request.tools.length > 0 && request.toolChoice !== undefined
        ? { tool_choice: toAnthropicToolChoice(request.toolChoice) }
        : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(stopSequences !== undefined && stopSequences.length > 0 ? { stop_sequences: [...stopSequences] } : {}),
      ...(request.responseFormat === undefined ? {} : { output_config: this.outputConfig(request.responseFormat) }),
    };
  }

  /**
   * `output_config` with the response format (beside an `output_config` of `extraParams`, e.g. `effort`).
   *
   * @throws {@link wuwe!ModelApiError} `invalid_request` when the schema has no form under Claude's rules.
   */
  private outputConfig(format: ModelResponseFormat): Record<string, unknown> {
    const claudeFormat = toClaudeOutputFormat(format);
    if (claudeFormat === undefined)
      throw new ModelApiError('invalid_request', {
        provider: 'anthropic',
        detail: `the response format '${format.name}' has a free-form object, which Claude's structured outputs cannot express`,
        retryable: false,
      });
    const extra = this.options.extraParams.output_config;
    return { ...(typeof extra === 'object' && extra !== null ? extra : {}), format: claudeFormat };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}
