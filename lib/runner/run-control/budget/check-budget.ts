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

/** A run's budget and its model's price as checked: copies read once, so the run never reads the options again. */
export interface CheckedBudget {
  readonly budget?: RunBudget;
  readonly price?: ModelPrice;
}

/**
 * Throws `invalid_run_options` for a budget that cannot work (a key it does not know included, a getter that throws):
 * token and count limits must be integers >= 0, `maxCostUsd` and `maxWallMs` finite numbers >= 0, and `maxCostUsd`
 * needs a valid price for the run's model (no price is built in). Answers frozen copies of the budget and of the
 * model's price (when the table has one): a limit changed after the check changes nothing. @internal
 */
export function checkBudget(
  budget: RunBudget | undefined,
  prices: ModelPriceTable | undefined,
  modelName: string,
): CheckedBudget {
  try {
    return readBudget(budget, prices, modelName);
  } catch (error) {
    if (LlmAgentError.isInstance(error)) throw error;
    throw new LlmAgentError('invalid_run_options', `the budget options could not be read: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

function readBudget(
  budget: RunBudget | undefined,
  prices: ModelPriceTable | undefined,
  modelName: string,
): CheckedBudget {
  const listed = prices !== undefined && Object.hasOwn(prices, modelName) ? prices[modelName] : undefined;
  const price = listed === undefined ? undefined : checkedPrice(listed, modelName);
  if (budget === undefined) return price === undefined ? {} : { price };
  if (typeof budget !== 'object' || budget === null || Array.isArray(budget))
    throw new LlmAgentError('invalid_run_options', `budget must be an object, got ${messageOf(budget)}`);
  // A misspelt limit would be no limit at all: every key must be one the budget knows.
  const unknown = Reflect.ownKeys(budget).filter((key) => !(BUDGET_KEYS as readonly PropertyKey[]).includes(key));
  if (unknown.length > 0)
    throw new LlmAgentError(
      'invalid_run_options',
      `budget has unknown limits ${unknown.map((key) => JSON.stringify(String(key))).join(', ')} (known: ${BUDGET_KEYS.join(', ')})`,
    );
  const limits: Record<string, number> = {};
  for (const name of INTEGER_LIMITS) {
    const value: unknown = budget[name];
    if (value === undefined) continue;
    if (!(Number.isSafeInteger(value) && (value as number) >= 0))
      throw new LlmAgentError('invalid_run_options', `budget.${name} must be an integer >= 0, got ${messageOf(value)}`);
    limits[name] = value as number;
  }
  for (const name of ['maxCostUsd', 'maxWallMs'] as const) {
    const value: unknown = budget[name];
    if (value === undefined) continue;
    if (!isPriceValue(value))
      throw new LlmAgentError(
        'invalid_run_options',
        `budget.${name} must be a finite number >= 0, got ${messageOf(value)}`,
      );
    limits[name] = value as number;
  }
  if (limits.maxCostUsd !== undefined && price === undefined)
    throw new LlmAgentError(
      'invalid_run_options',
      `budget.maxCostUsd needs a price for model '${modelName}': add it to modelPrices (no prices are built in)`,
    );
  const checked = Object.freeze(limits) as RunBudget;
  return price === undefined ? { budget: checked } : { budget: checked, price };
}

/** A frozen copy of a model's price, each field read once; `invalid_run_options` for a malformed one. */
function checkedPrice(price: ModelPrice, modelName: string): ModelPrice {
  if (typeof price !== 'object' || price === null)
    throw new LlmAgentError('invalid_run_options', `modelPrices['${modelName}'] must be an object`);
  const { inputUsdPerMillionTokens, outputUsdPerMillionTokens, cachedInputUsdPerMillionTokens } = price;
  if (!isPriceValue(inputUsdPerMillionTokens) || !isPriceValue(outputUsdPerMillionTokens))
    throw new LlmAgentError(
      'invalid_run_options',
      `modelPrices['${modelName}'] needs inputUsdPerMillionTokens and outputUsdPerMillionTokens, finite numbers >= 0`,
    );
  if (cachedInputUsdPerMillionTokens !== undefined && !isPriceValue(cachedInputUsdPerMillionTokens))
    throw new LlmAgentError(
      'invalid_run_options',
      `modelPrices['${modelName}'].cachedInputUsdPerMillionTokens must be a finite number >= 0, got ${messageOf(cachedInputUsdPerMillionTokens)}`,
    );
  return Object.freeze(
    cachedInputUsdPerMillionTokens === undefined
      ? { inputUsdPerMillionTokens, outputUsdPerMillionTokens }
      : { inputUsdPerMillionTokens, outputUsdPerMillionTokens, cachedInputUsdPerMillionTokens },
  );
}

function isPriceValue(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
