import { ModelClientOptionsError } from '../model-client-options-error';
import { AiSdkLanguageModel, AiSdkProviderOptions } from './ai-sdk-language-model';

/** What a user passes to `new AiSdkModelClient(model, options)`. Every field is optional. */
export interface AiSdkModelClientOptions {
  /**
   * System prompt used when a request carries none (`ModelRequest.system` wins).
   * @default no system prompt
   */
  readonly system?: string;
  /**
   * The most output tokens one step may produce (`maxOutputTokens`). A positive integer.
   * @default the provider's default
   */
  readonly maxOutputTokens?: number;
  /**
   * Sampling temperature; its range depends on the provider. Sent only when set.
   * @default the provider's default
   */
  readonly temperature?: number;
  /**
   * Custom stop sequences.
   * @default none
   */
  readonly stopSequences?: readonly string[];
  /**
   * Provider-specific options sent with every call, by provider name, e.g.
   * `{ openai: { parallelToolCalls: false } }` or `{ anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } }
   * }`.
   * @default none
   */
  readonly providerOptions?: AiSdkProviderOptions;
  /**
   * Extra HTTP headers sent with every call, for providers that send HTTP requests.
   * @default none
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** {@link AiSdkModelClientOptions} checked, with the model; what the client uses. */
export interface ResolvedAiSdkModelClientOptions {
  readonly model: AiSdkLanguageModel;
  readonly system: string | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly stopSequences: readonly string[] | undefined;
  readonly providerOptions: AiSdkProviderOptions | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/**
 * Checks the model and {@link AiSdkModelClientOptions} and returns a frozen result.
 *
 * @throws {@link ModelClientOptionsError} listing every problem.
 */
export function resolveAiSdkModelClientOptions(
  model: AiSdkLanguageModel,
  options: AiSdkModelClientOptions,
): ResolvedAiSdkModelClientOptions {
  const problems = [...findModelProblems(model), ...findOptionProblems(options)];
  if (problems.length > 0) throw new ModelClientOptionsError('AiSdkModelClient', problems);
  return Object.freeze({
    model,
    system: options.system,
    maxOutputTokens: options.maxOutputTokens,
    temperature: options.temperature,
    stopSequences: options.stopSequences === undefined ? undefined : Object.freeze([...options.stopSequences]),
    providerOptions: options.providerOptions,
    headers: options.headers === undefined ? undefined : Object.freeze({ ...options.headers }),
  });
}

function findModelProblems(model: unknown): string[] {
  if (typeof model === 'string') {
    return [
      `the model must be an AI SDK language model object (e.g. \`openai('${model}')\`), not the string '${model}'`,
    ];
  }
  if (typeof model !== 'object' || model === null) return ['the model must be an AI SDK language model object'];
  const candidate = model as Partial<Record<keyof AiSdkLanguageModel, unknown>>;
  if (candidate.specificationVersion !== 'v3') {
    return [
      `the model implements AI SDK specification ${JSON.stringify(candidate.specificationVersion)}; ` +
        'only LanguageModelV3 models (@ai-sdk/provider 3, AI SDK 6 providers) are supported',
    ];
  }
  const problems: string[] = [];
  if (typeof candidate.doGenerate !== 'function') problems.push('the model has no `doGenerate` method');
  if (typeof candidate.doStream !== 'function') problems.push('the model has no `doStream` method');
  if (typeof candidate.modelId !== 'string' || candidate.modelId.length === 0)
    problems.push('the model has no `modelId`');
  return problems;
}

function findOptionProblems(options: AiSdkModelClientOptions): string[] {
  const problems: string[] = [];
  const { system, maxOutputTokens, temperature, stopSequences, providerOptions, headers } = options;
  if (system !== undefined && typeof system !== 'string') problems.push('`system` must be a string');
  if (maxOutputTokens !== undefined && (!Number.isSafeInteger(maxOutputTokens) || maxOutputTokens < 1)) {
    problems.push(`\`maxOutputTokens\` must be a positive integer, got ${String(maxOutputTokens)}`);
  }
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0)) {
    problems.push(`\`temperature\` must be a number of 0 or more, got ${String(temperature)}`);
  }
  if (
    stopSequences !== undefined &&
    !stopSequences.every((sequence) => typeof sequence === 'string' && sequence.length > 0)
  ) {
    problems.push('`stopSequences` must be non-empty strings');
  }
  if (providerOptions !== undefined && !isRecordOfRecords(providerOptions)) {
    problems.push('`providerOptions` must be an object of objects, by provider name');
  }
  if (
    headers !== undefined &&
    !(isRecord(headers) && Object.values(headers).every((value) => typeof value === 'string'))
  ) {
    problems.push('`headers` must be an object of strings');
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRecordOfRecords(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every(isRecord);
}
