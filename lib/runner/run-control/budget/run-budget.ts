import type { KeyBudgetLimits, KeyBudgetSpent } from '../../../durable/budget/budget-keys';

/**
 * Hard limits of one run, checked before each model request and each tool call (fail closed: the run stops with
 * stop reason `budget_exhausted`). Every field optional; an absent one does not limit. Tokens are the model's
 * reported usage; a resumed run continues from its record.
 */
export interface RunBudget {
  /** Input tokens of all model requests; a request whose estimated input would cross it is not sent. */
  readonly maxInputTokens?: number;
  /** Output tokens of all model requests; each request's output is capped to what is left. */
  readonly maxOutputTokens?: number;
  /** Input plus output tokens. */
  readonly maxTotalTokens?: number;
  /** Cost in US dollars, from the host's `modelPrices` (a model without a price is `invalid_run_options`). */
  readonly maxCostUsd?: number;
  /** Tool calls let through to dispatch (a call refused before, say by validation, does not count). */
  readonly maxToolCalls?: number;
  /** Model requests. */
  readonly maxModelRequests?: number;
  /** Wall time since the run was created (a resumed run counts from its record's creation, pauses included). */
  readonly maxWallMs?: number;
}

/** The name of a limit of {@link RunBudget}. */
export type BudgetLimitName = keyof RunBudget;

/** The price of one model, in US dollars per million tokens. No prices are built in: they go stale. */
export interface ModelPrice {
  readonly inputUsdPerMillionTokens: number;
  readonly outputUsdPerMillionTokens: number;
  /**
   * The price of input tokens read from the provider's prompt cache (`usage.cachedInputTokens`).
   * @default inputUsdPerMillionTokens
   */
  readonly cachedInputUsdPerMillionTokens?: number;
}

/** Prices by model name (`ModelStepper.modelName`). */
export type ModelPriceTable = Readonly<Record<string, ModelPrice>>;

/** What a run has spent. */
export interface BudgetSpent {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Present when the run has a price for its model. */
  readonly costUsd?: number;
  readonly toolCalls: number;
  readonly modelRequests: number;
  readonly wallMs: number;
}

/** What each limit of a run's budget still allows (only the limits it has). */
export type BudgetRemaining = { readonly [Name in BudgetLimitName]?: number };

/** Which limit stopped a run, and where: a limit of its own `budget`, or of its `budgetKey` (then `key` names it). */
export interface BudgetExhaustion {
  readonly limit: BudgetLimitName;
  /** The budget key whose limit tripped; absent for a limit of the run's own `budget`. */
  readonly key?: string;
  /** The limit's value. */
  readonly max: number;
  /** Before which step it tripped: a model request, or a tool call. */
  readonly at: 'model_request' | 'tool_call';
}

/** The budget of a finished run: its limits, what it spent, what is left, and the limit that stopped it, if one did. */
export interface BudgetReport {
  readonly limits: RunBudget;
  readonly spent: BudgetSpent;
  readonly remaining: BudgetRemaining;
  readonly exhausted?: BudgetExhaustion;
}

/** The budget key of a finished run: the key, its limits, what all its runs spent, and what is left. */
export interface KeyBudgetReport {
  readonly key: string;
  readonly limits: KeyBudgetLimits;
  readonly spent: KeyBudgetSpent;
  readonly remaining: BudgetRemaining;
  /** The key's limit that stopped the run, if one did. */
  readonly exhausted?: BudgetExhaustion;
}
