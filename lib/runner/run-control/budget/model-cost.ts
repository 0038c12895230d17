import type { ModelUsage } from '../../../model/model-types';
import type { ModelPrice } from './run-budget';

const MILLION = 1_000_000;

/**
 * The cost in US dollars of a model response's usage at `price`: input tokens read from the prompt cache
 * (`usage.cachedInputTokens`, at most `inputTokens`) at `cachedInputUsdPerMillionTokens` (the input price when the
 * price has none), the other input tokens at the input price, output tokens at the output price. @internal
 */
export function costOfUsage(price: ModelPrice, usage: ModelUsage): number {
  const cached = Math.min(Math.max(0, usage.cachedInputTokens ?? 0), usage.inputTokens);
  const cachedPrice = price.cachedInputUsdPerMillionTokens ?? price.inputUsdPerMillionTokens;
  return (
    ((usage.inputTokens - cached) * price.inputUsdPerMillionTokens +
      cached * cachedPrice +
      usage.outputTokens * price.outputUsdPerMillionTokens) /
    MILLION
  );
}
