import { ModelClientOptionsError } from '../model-client-options-error';

/** The default model of {@link OpenAIModelClient}. */
export const DEFAULT_OPENAI_MODEL = 'gpt-5-mini';

/** Which OpenAI API an {@link OpenAIModelClient} speaks: Chat Completions or the Responses API. */
export type OpenAIApi = 'chat' | 'responses';

/**
 * A request body {@link OpenAIModelClient} sends (Chat Completions or Responses), described without the
 * SDK's types so that wuwe's declarations compile where `openai` is not installed.
 */
export interface OpenAIRequestBody {
  /** Model name. */
  readonly model: string;
  /** Whether the answer is streamed as server-sent events. */
  readonly stream: boolean;
}

/** Options of one SDK call: the caller's abort signal. */
export interface OpenAIRequestOptions {
  /** Aborts the request (and a stream being read). */
  readonly signal?: AbortSignal;
}

/**
 * The part of an `OpenAI` SDK client that {@link OpenAIModelClient} uses: `chat.completions.create` and
 * `responses.create`. A real `new OpenAI(...)` client fits it.
 */
export interface OpenAIApiClient {
  /** Chat Completions (`POST /chat/completions`). */
  readonly chat: {
    /** The completions resource. */
    readonly completions: {
      /** Sends one request; resolves to a `ChatCompletion`, or to a stream of chunks when `body.stream` is true. */
      create(body: OpenAIRequestBody, options?: OpenAIRequestOptions): PromiseLike<unknown>;
    };
  };
  /** The Responses API (`POST /responses`). */
  readonly responses: {
    /** Sends one request; resolves to a `Response`, or to a stream of events when `body.stream` is true. */
    create(body: OpenAIRequestBody, options?: OpenAIRequestOptions): PromiseLike<unknown>;
  };
}

/**
 * Further body parameters sent with every request (for example `reasoning`, `reasoning_effort`,
 * `tool_choice`, `top_p`, `seed`, `service_tier`), as the API names them. The parameters the client
 * manages itself are refused (see {@link OpenAIModelClientOptions.extraParams}).
 */
export type OpenAIExtraParams = { readonly [parameter: string]: unknown };

/** What a user passes to `new OpenAIModelClient(...)`. Every field is optional. */
export interface OpenAIModelClientOptions {
  /**
   * Which API requests go to: `'chat'` (Chat Completions, which OpenAI-compatible servers such as vLLM,
   * Ollama and llama.cpp speak) or `'responses'` (the Responses API, whose reasoning items are kept and
   * sent back).
   * @default 'chat'
   */
  readonly api?: OpenAIApi;
  /**
   * A ready `OpenAI` client. Pass one to keep your own `baseURL`, `maxRetries`, `timeout`, headers or
   * `fetch`; the model client never changes its settings. Mutually exclusive with `apiKey` and `baseURL`.
   * @default a new `OpenAI({ apiKey, baseURL })` client, which reads `OPENAI_API_KEY` and `OPENAI_BASE_URL`
   */
  readonly client?: OpenAIApiClient;
  /**
   * API key for the client created when `client` is not given.
   * @default process.env.OPENAI_API_KEY (read by the SDK)
   */
  readonly apiKey?: string;
  /**
   * Base URL for the client created when `client` is not given: an OpenAI-compatible server, e.g.
   * `http://localhost:11434/v1` (Ollama) or `http://localhost:8000/v1` (vLLM).
   * @default process.env.OPENAI_BASE_URL, else `https://api.openai.com/v1` (read by the SDK)
   */
  readonly baseURL?: string;
  /**
   * Model name sent as `model`, and exposed as `modelName`.
   * @default DEFAULT_OPENAI_MODEL ('gpt-5-mini')
   */
  readonly model?: string;
  /**
   * The most output tokens of one step (`max_completion_tokens` for Chat Completions, `max_output_tokens`
   * for Responses). A positive integer. A step cut at this limit has stop reason `max_tokens`.
   * @default the API's default (not sent)
   */
  readonly maxTokens?: number;
  /**
   * System prompt used when a request carries none (`ModelRequest.system` wins). Sent as a `system`
   * message (Chat Completions) or as `instructions` (Responses).
   * @default no system prompt
   */
  readonly system?: string;
  /**
   * Sampling temperature, from 0 to 2. Sent only when set; reasoning models accept only the default.
   * @default the API's default
   */
  readonly temperature?: number;
  /**
   * Strict function calling: every tool is sent with `strict: true` and its input schema rewritten to
   * OpenAI's strict rules (every property in `required`, optional ones nullable, `additionalProperties:
   * false`, nested objects too). The model then always sends every property, `null` for an optional one
   * it leaves out, and the runner reads such a `null` as "absent" (see `ModelToolCall.nullsAreAbsent`).
   * @default false
   */
  readonly strict?: boolean;
  /**
   * Whether the model may ask for several tool calls in one step (`parallel_tool_calls`). Sent only when set.
   * @default the API's default (parallel calls allowed)
   */
  readonly parallelToolCalls?: boolean;
  /**
   * Responses API only: whether OpenAI stores the response (`store`). When false, reasoning items come
   * back encrypted (`include: ['reasoning.encrypted_content']`) so they can be sent back statelessly.
   * @default false
   */
  readonly store?: boolean;
  /**
   * Further body parameters sent with every request. May not set `model`, `messages`, `input`, `tools`,
   * `stream`, `stream_options`, `instructions`, `temperature`, `max_tokens`, `max_completion_tokens`,
   * `max_output_tokens`, `parallel_tool_calls`, `store` or `include` (use the client's own options).
   * @default none
   */
  readonly extraParams?: OpenAIExtraParams;
}

/** {@link OpenAIModelClientOptions} checked and with every default filled; what the client uses. */
export interface ResolvedOpenAIModelClientOptions {
  readonly api: OpenAIApi;
  readonly client: OpenAIApiClient;
  readonly model: string;
  readonly maxTokens: number | undefined;
  readonly system: string | undefined;
  readonly temperature: number | undefined;
  readonly strict: boolean;
  readonly parallelToolCalls: boolean | undefined;
  readonly store: boolean;
  readonly extraParams: OpenAIExtraParams;
}

/** The environment variable the SDK reads the API key from. */
const API_KEY_VARIABLE = 'OPENAI_API_KEY';

/** Body parameters the client sets itself; `extraParams` may not carry them. */
const MANAGED_PARAMS = [
  'model',
  'messages',
  'input',
  'tools',
  'stream',
  'stream_options',
  'instructions',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'parallel_tool_calls',
  'store',
  'include',
];

/**
 * Checks {@link OpenAIModelClientOptions}, fills the defaults and returns a frozen result.
 * `createClient` builds the SDK client when none is given (it receives the `apiKey` and `baseURL` options).
 *
 * @throws {@link ModelClientOptionsError} listing every problem.
 */
export function resolveOpenAIModelClientOptions(
  options: OpenAIModelClientOptions,
  createClient: (settings: { apiKey?: string; baseURL?: string }) => OpenAIApiClient,
): ResolvedOpenAIModelClientOptions {
  const problems = findOptionProblems(options);
  if (
    options.client === undefined &&
    options.apiKey === undefined &&
    (process.env[API_KEY_VARIABLE] ?? '').trim().length === 0
  ) {
    problems.push(
      `no API key: set the ${API_KEY_VARIABLE} environment variable, or pass \`apiKey\` or \`client\` (any non-empty key for a local server that ignores it)`,
    );
  }
  if (problems.length > 0) throw new ModelClientOptionsError('OpenAIModelClient', problems);
  const { apiKey, baseURL } = options;
  return Object.freeze({
    api: options.api ?? 'chat',
    client:
      options.client ??
      createClient({ ...(apiKey !== undefined ? { apiKey } : {}), ...(baseURL !== undefined ? { baseURL } : {}) }),
    model: options.model ?? DEFAULT_OPENAI_MODEL,
    maxTokens: options.maxTokens,
    system: options.system,
    temperature: options.temperature,
    strict: options.strict ?? false,
    parallelToolCalls: options.parallelToolCalls,
    store: options.store ?? false,
    extraParams: Object.freeze({ ...options.extraParams }),
  });
}

function findOptionProblems(options: OpenAIModelClientOptions): string[] {
  const problems: string[] = [];
  const { api, client, apiKey, baseURL, model, maxTokens, temperature, strict, parallelToolCalls, store } = options;
  if (api !== undefined && api !== 'chat' && api !== 'responses')
    problems.push(`\`api\` must be 'chat' or 'responses', got ${String(api)}`);
  if (client !== undefined && (apiKey !== undefined || baseURL !== undefined)) {
    problems.push('pass either `client` or `apiKey`/`baseURL`, not both (configure them on the client)');
  }
  if (
    client !== undefined &&
    (typeof client.chat?.completions?.create !== 'function' || typeof client.responses?.create !== 'function')
  ) {
    problems.push('`client` must be an OpenAI SDK client (it has no `chat.completions.create` or `responses.create`)');
  }
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length === 0))
    problems.push('`apiKey` must be a non-empty string');
  if (baseURL !== undefined && !isHttpUrl(baseURL))
    problems.push(`\`baseURL\` must be an http(s) URL, got ${String(baseURL)}`);
  if (model !== undefined && (typeof model !== 'string' || model.trim().length === 0))
    problems.push('`model` must be a non-empty string');
  if (maxTokens !== undefined && (!Number.isSafeInteger(maxTokens) || maxTokens < 1)) {
    problems.push(`\`maxTokens\` must be a positive integer, got ${String(maxTokens)}`);
  }
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)) {
    problems.push(`\`temperature\` must be a number from 0 to 2, got ${String(temperature)}`);
  }
  for (const [name, value] of [
    ['strict', strict],
    ['parallelToolCalls', parallelToolCalls],
    ['store', store],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') problems.push(`\`${name}\` must be a boolean`);
  }
  const managed = Object.keys(options.extraParams ?? {}).filter((key) => MANAGED_PARAMS.includes(key));
  if (managed.length > 0)
    problems.push(`\`extraParams\` may not set ${managed.join(', ')} (use the client's own options)`);
  return problems;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
