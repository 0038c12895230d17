import { ModelClientOptionsError } from '../model-client-options-error';

/** The default model of {@link AnthropicModelClient}: the current Sonnet model. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';

/**
 * The default `max_tokens` of {@link AnthropicModelClient}: room for a long answer or several tool calls,
 * well under the SDK's ceiling for non-streaming requests.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/**
 * The Messages API request body {@link AnthropicModelClient} sends: the SDK's
 * `MessageCreateParamsNonStreaming`, described here without the SDK's types so that wuwe's
 * declarations compile where `@anthropic-ai/sdk` is not installed.
 */
export interface AnthropicMessagesRequest {
  /** Model name. */
  readonly model: string;
  /** The most output tokens of this request. */
  readonly max_tokens: number;
  /** The conversation, in the Messages API's shape. */
  readonly messages: readonly unknown[];
}

/**
 * The part of an `Anthropic` SDK client that {@link AnthropicModelClient} uses: `messages.create`.
 * A real `new Anthropic(...)` client fits it.
 */
export interface AnthropicMessagesClient {
  /** The Messages API. */
  readonly messages: {
    /** Sends one non-streaming request; resolves to the API's `Message`. */
    create(body: AnthropicMessagesRequest, options?: { signal?: AbortSignal }): PromiseLike<unknown>;
  };
}

/**
 * Further Messages API body parameters sent with every request (for example `thinking`, `tool_choice`,
 * `metadata`, `output_config`, `top_p`), as the SDK's `MessageCreateParamsNonStreaming` names them.
 * The parameters the client manages itself (`model`, `max_tokens`, `messages`, `tools`, `system`,
 * `stream`, `temperature`, `stop_sequences`) are refused.
 */
export type AnthropicExtraParams = { readonly [parameter: string]: unknown };

/** What a user passes to `new AnthropicModelClient(...)`. Every field is optional. */
export interface AnthropicModelClientOptions {
  /**
   * A ready `Anthropic` client. Pass one to keep your own `baseURL`, `maxRetries`, `timeout`, headers
   * or `fetch`; the model client never changes its settings. Mutually exclusive with `apiKey`.
   * @default a new `Anthropic({ apiKey })` client, which reads `ANTHROPIC_API_KEY` when `apiKey` is not given
   */
  readonly client?: AnthropicMessagesClient;
  /**
   * API key for the client created when `client` is not given.
   * @default process.env.ANTHROPIC_API_KEY (read by the SDK)
   */
  readonly apiKey?: string;
  /**
   * Model name sent as `model`, and exposed as `modelName`.
   * @default DEFAULT_ANTHROPIC_MODEL ('claude-sonnet-5-5')
   */
  readonly model?: string;
  /**
   * `max_tokens` of every request: the most output tokens one step may produce. A positive integer.
   * Requests the SDK estimates at over ten minutes (about 21,000 tokens) need streaming: `step` refuses them,
   * `streamStep` (`runner.stream()`) does not.
   * @default DEFAULT_ANTHROPIC_MAX_TOKENS (4096)
   */
  readonly maxTokens?: number;
  /**
   * System prompt used when a request carries none (`ModelRequest.system` wins).
   * @default no system prompt
   */
  readonly system?: string;
  /**
   * Sampling temperature, from 0 to 1. Sent only when set; some models accept only the default.
   * @default the API's default
   */
  readonly temperature?: number;
  /**
   * Custom stop sequences; a response that ends on one has stop reason `stop_sequence`.
   * @default none
   */
  readonly stopSequences?: readonly string[];
  /**
   * Further Messages API body parameters sent with every request.
   * @default none
   */
  readonly extraParams?: AnthropicExtraParams;
}

/** {@link AnthropicModelClientOptions} checked and with every default filled; what the client uses. */
export interface ResolvedAnthropicModelClientOptions {
  readonly client: AnthropicMessagesClient;
  readonly model: string;
  readonly maxTokens: number;
  readonly system: string | undefined;
  readonly temperature: number | undefined;
  readonly stopSequences: readonly string[] | undefined;
  readonly extraParams: AnthropicExtraParams;
}

/**
 * Checks {@link AnthropicModelClientOptions}, fills the defaults and returns a frozen result.
 * `createClient` builds the SDK client when none is given (it receives the `apiKey` option).
 *
 * @throws {@link ModelClientOptionsError} listing every problem.
 */
export function resolveAnthropicModelClientOptions(
  options: AnthropicModelClientOptions,
  createClient: (apiKey: string | undefined) => AnthropicMessagesClient,
): ResolvedAnthropicModelClientOptions {
  const problems = findOptionProblems(options);
  if (options.client === undefined && options.apiKey === undefined && !hasEnvironmentKey()) {
    problems.push(`no API key: set the ${API_KEY_VARIABLE} environment variable, or pass \`apiKey\` or \`client\``);
  }
  if (problems.length > 0) throw new ModelClientOptionsError('AnthropicModelClient', problems);
  return Object.freeze({
    client: options.client ?? createClient(options.apiKey),
    model: options.model ?? DEFAULT_ANTHROPIC_MODEL,
    maxTokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    system: options.system,
    temperature: options.temperature,
    stopSequences: options.stopSequences === undefined ? undefined : Object.freeze([...options.stopSequences]),
    extraParams: Object.freeze({ ...options.extraParams }),
  });
}

/** The environment variable the SDK reads the API key from. */
const API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';

/** True when the SDK will find credentials in the environment (an API key, or a bearer token). */
function hasEnvironmentKey(): boolean {
  return [API_KEY_VARIABLE, 'ANTHROPIC_AUTH_TOKEN'].some((name) => (process.env[name] ?? '').trim().length > 0);
}

/** Body parameters the client sets itself; `extraParams` may not carry them. */
const MANAGED_PARAMS = [
  'model',
  'max_tokens',
  'messages',
  'tools',
  'system',
  'stream',
  'temperature',
  'stop_sequences',
];

function findOptionProblems(options: AnthropicModelClientOptions): string[] {
  const problems: string[] = [];
  const { client, apiKey, model, maxTokens, temperature, stopSequences } = options;
  if (client !== undefined && apiKey !== undefined) {
    problems.push('pass either `client` or `apiKey`, not both (configure the key on the client)');
  }
  if (client !== undefined && typeof client.messages?.create !== 'function') {
    problems.push('`client` must be an Anthropic SDK client (it has no `messages.create`)');
  }
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length === 0)) {
    problems.push('`apiKey` must be a non-empty string');
  }
  if (model !== undefined && (typeof model !== 'string' || model.trim().length === 0)) {
    problems.push('`model` must be a non-empty string');
  }
  if (maxTokens !== undefined && (!Number.isSafeInteger(maxTokens) || maxTokens < 1)) {
    problems.push(`\`maxTokens\` must be a positive integer, got ${String(maxTokens)}`);
  }
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 1)) {
    problems.push(`\`temperature\` must be a number from 0 to 1, got ${String(temperature)}`);
  }
  if (
    stopSequences !== undefined &&
    !stopSequences.every((sequence) => typeof sequence === 'string' && sequence.length > 0)
  ) {
    problems.push('`stopSequences` must be non-empty strings');
  }
  const managed = Object.keys(options.extraParams ?? {}).filter((key) => MANAGED_PARAMS.includes(key));
  if (managed.length > 0) {
    problems.push(`\`extraParams\` may not set ${managed.join(', ')} (use the client's own options)`);
  }
  return problems;
}
