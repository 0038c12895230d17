import { messageOf } from '../../../errors/message-of';
import { LlmAgentError } from '../../runner-error';
import type { ModelPrice, ModelPriceTable, RunBudget } from './run-budget';

const INTEGER_LIMITS = [
  'maxInputTokens',
  'maxOutputTokens',
  'maxTotalTokens',
  'maxToolCalls',
  'maxModelRequests',
] as const satisfies readonly (keyof RunBudget)[];

/** Every limit a {@link RunBudget} has. */
const BUDGET_KEYS: readonly (keyof RunBudget)[] = [...INTEGER_LIMITS, 'maxCostUsd', 'maxWallMs'];

/**
 * Throws `invalid_run_options` for a budget that cannot work (a key it does not know included): token and count
 * limits must be integers >= 0, `maxCostUsd` and `maxWallMs` finite numbers >= 0, and `maxCostUsd` needs a valid
 * price for the run's model (no price is built in). Answers the model's price, when the table has one. @internal
 */
export function checkBudget(
  budget: RunBudget | undefined,
  prices: ModelPriceTable | undefined,
  modelName: string,
): ModelPrice | undefined {
  const price = prices !== undefined && Object.hasOwn(prices, modelName) ? prices[modelName] : undefined;
  if (price !== undefined) checkPrice(price, modelName);
  if (budget === undefined) return price;
  if (typeof budget !== 'object' || budget === null || Array.isArray(budget))
    throw new LlmAgentError('invalid_run_options', `budget must be an object, got ${messageOf(budget)}`);
  // A misspelt limit would be no limit at all: every key must be one the budget knows.
  const unknown = Reflect.ownKeys(budget).filter((key) => !(BUDGET_KEYS as readonly PropertyKey[]).includes(key));
  if (unknown.length > 0)
    throw new LlmAgentError(
      'invalid_run_options',
      `budget has unknown limits ${unknown.map((key) => JSON.stringify(String(key))).join(', ')} (known: ${BUDGET_KEYS.join(', ')})`,
    );
  for (const name of INTEGER_LIMITS) {
    const value = budget[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      throw new LlmAgentError('invalid_run_options', `budget.${name} must be an integer >= 0, got ${messageOf(value)}`);
  }
  for (const name of ['maxCostUsd', 'maxWallMs'] as const) {
    const value = budget[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0))
      throw new LlmAgentError(
        'invalid_run_options',
        `budget.${name} must be a finite number >= 0, got ${messageOf(value)}`,
      );
  }
  if (budget.maxCostUsd !== undefined && price === undefined)
    throw new LlmAgentError(
      'invalid_run_options',
      `budget.maxCostUsd needs a price for model '${modelName}': add it to modelPrices (no prices are built in)`,
    );
  return price;
}

function checkPrice(price: ModelPrice, modelName: string): void {
  const fields = [price?.inputUsdPerMillionTokens, price?.outputUsdPerMillionTokens];
  if (!fields.every(isPriceValue))
    throw new LlmAgentError(
      'invalid_run_options',
      `modelPrices['${modelName}'] needs inputUsdPerMillionTokens and outputUsdPerMillionTokens, finite numbers >= 0`,
    );
  const cached = price.cachedInputUsdPerMillionTokens;
  if (cached !== undefined && !isPriceValue(cached))
    throw new LlmAgentError(
      'invalid_run_options',
      `modelPrices['${modelName}'].cachedInputUsdPerMillionTokens must be a finite number >= 0, got ${messageOf(cached)}`,
    );
}

function isPriceValue(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
