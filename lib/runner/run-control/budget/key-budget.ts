import type { BudgetKeyStore, KeyBudgetState } from '../../../durable/budget/budget-keys';
import type { ModelResponse } from '../../../model/model-types';
import type { LlmAgentRunOptions } from '../../run-options';
import type { RunInProgress } from '../../run-state';
import { LlmAgentError } from '../../runner-error';
import { assistantMessagesOf } from '../../turn-messages';
import { costOfUsage } from './model-cost';
import type { BudgetExhaustion, BudgetRemaining, KeyBudgetReport, ModelPrice } from './run-budget';

/** The budget key of a run: the key, the store that keeps its spending, and what the last reservation saw. @internal */
export interface KeyBudget {
  readonly key: string;
  readonly store: BudgetKeyStore;
  /** The reservation id of the model request in flight. */
  pending?: string;
  /** The key's state as the last reservation left it. */
  state?: KeyBudgetState;
}

/**
 * The budget key of a new run, or undefined without `budgetKey`. Throws `invalid_run_options` for a key that is not
 * a non-empty string, or a run whose store cannot keep key budgets (no `store`, or a store without `budgetKeys`).
 * @internal
 */
export function newKeyBudget(options: LlmAgentRunOptions): KeyBudget | undefined {
  const { budgetKey, store } = options;
  if (budgetKey === undefined) return undefined;
  if (typeof budgetKey !== 'string' || budgetKey.length === 0)
    throw new LlmAgentError('invalid_run_options', 'budgetKey must be a non-empty string');
  if (store === undefined)
    throw new LlmAgentError('invalid_run_options', `budgetKey '${budgetKey}' needs a store that keeps key budgets`);
  const keys = store.budgetKeys;
  if (keys === undefined || keys === null || typeof keys.reserveKeyBudget !== 'function')
    throw new LlmAgentError(
      'invalid_run_options',
      `budgetKey '${budgetKey}': the run's store does not keep key budgets (RunStore.budgetKeys)`,
    );
  return { key: budgetKey, store: keys };
}

/** The reservation id of the run's next model request: its turn, stable across a retry and a resume. @internal */
export function modelReservationId(run: RunInProgress): string {
  return `model:${assistantMessagesOf(run.messages) + 1}`;
}

/** The reservation id of a tool call: its turn and call id. @internal */
export function callReservationId(turn: number, callId: string): string {
  return `call:${turn}:${callId}`;
}

/** Settles the key's reservation of the request in flight to the response's real usage. @internal */
export async function settleKeyModelRequest(
  run: RunInProgress,
  keyBudget: KeyBudget,
  response: ModelResponse,
): Promise<void> {
  const reservationId = keyBudget.pending;
  if (reservationId === undefined) return;
  keyBudget.pending = undefined;
  const price = run.control?.price;
  const { inputTokens, outputTokens } = response.usage;
  const costUsd = price === undefined ? 0 : costOfUsage(price, response.usage);
  await keyBudget.store.settleKeyBudget(
    keyBudget.key,
    { runId: run.runId, reservationId },
    { inputTokens, outputTokens, costUsd },
  );
}

/** Drops the key's reservation of a request that failed (the request still counts). @internal */
export async function releaseKeyModelRequest(run: RunInProgress, keyBudget: KeyBudget): Promise<void> {
  const reservationId = keyBudget.pending;
  if (reservationId === undefined) return;
  keyBudget.pending = undefined;
  await keyBudget.store.releaseKeyBudget(keyBudget.key, { runId: run.runId, reservationId });
}

/** The price a key reservation is made at. @internal */
export function reservationPrice(price: ModelPrice | undefined) {
  return price === undefined
    ? undefined
    : {
        inputUsdPerMillionTokens: price.inputUsdPerMillionTokens,
        outputUsdPerMillionTokens: price.outputUsdPerMillionTokens,
      };
}

/** What each limit of the key still allows, as its last reservation saw it; never below 0. @internal */
export function keyRemaining(state: KeyBudgetState): BudgetRemaining {
  const { limits, spent } = state;
  const spentBy: Record<keyof typeof limits, number> = {
    maxInputTokens: spent.inputTokens,
    maxOutputTokens: spent.outputTokens,
    maxTotalTokens: spent.inputTokens + spent.outputTokens,
    maxCostUsd: spent.costUsd,
    maxToolCalls: spent.toolCalls,
    maxModelRequests: spent.modelRequests,
  };
  const remaining: Partial<Record<keyof typeof limits, number>> = {};
  for (const name of Object.keys(spentBy) as (keyof typeof limits)[]) {
    const limit = limits[name];
    if (limit !== undefined) remaining[name] = Math.max(0, limit - spentBy[name]);
  }
  return remaining;
}

/**
 * The report of the run's budget key, from the key's last state the run saw (none before its first reservation).
 * @internal
 */
export function keyBudgetReport(
  keyBudget: KeyBudget,
  exhausted: BudgetExhaustion | undefined,
): KeyBudgetReport | undefined {
  const state = keyBudget.state;
  if (state === undefined) return undefined;
  const report = { key: keyBudget.key, limits: state.limits, spent: state.spent, remaining: keyRemaining(state) };
  return exhausted?.key === undefined ? report : { ...report, exhausted };
}
