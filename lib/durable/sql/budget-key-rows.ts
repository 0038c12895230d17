import type { StoredBudgetExhaustion } from '../budget/budget-keys';
import { BudgetKeyRow, BudgetReservationRow, checkKeyBudget } from '../rules/budget-key-rules';

/** A row of `wuwe_budget_keys` as both SQL dialects read it. @internal */
export interface BudgetKeyTableRow {
  readonly budget_key: string;
  readonly limits_json: string;
  readonly input_tokens: number | string;
  readonly output_tokens: number | string;
  readonly cost_usd: number | string;
  readonly tool_calls: number | string;
  readonly model_requests: number | string;
  readonly in_flight: number | string;
}

/** A row of `wuwe_budget_reservations`. @internal */
export interface BudgetReservationTableRow {
  readonly run_id: string;
  readonly kind: string;
  readonly state: string;
  readonly input_tokens: number | string;
  readonly output_tokens: number | string;
  readonly cost_usd: number | string;
  readonly tool_calls: number | string;
  readonly model_requests: number | string;
  readonly output_cap: number | string | null;
}

/** A row of `wuwe_budget_exhaustions`. @internal */
export interface BudgetExhaustionTableRow {
  readonly run_id: string;
  readonly budget_key: string | null;
  readonly limit_name: string;
  readonly max_value: number | string;
  readonly at: string;
  readonly recorded_at: string;
}

/** The key row of a table row (PostgreSQL returns BIGINT as text). @internal */
export function budgetKeyOfRow(row: BudgetKeyTableRow): BudgetKeyRow {
  return {
    limits: checkKeyBudget(row.budget_key, JSON.parse(row.limits_json)),
    spent: {
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costUsd: Number(row.cost_usd),
      toolCalls: Number(row.tool_calls),
      modelRequests: Number(row.model_requests),
    },
    inFlight: Number(row.in_flight),
  };
}

/** The reservation of a table row. @internal */
export function reservationOfRow(row: BudgetReservationTableRow): BudgetReservationRow {
  return {
    runId: row.run_id,
    kind: row.kind === 'tool_call' ? 'tool_call' : 'model_request',
    state: row.state === 'settled' ? 'settled' : row.state === 'released' ? 'released' : 'reserved',
    amounts: {
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costUsd: Number(row.cost_usd),
      toolCalls: Number(row.tool_calls),
      modelRequests: Number(row.model_requests),
    },
    ...(row.output_cap === null ? {} : { outputCap: Number(row.output_cap) }),
  };
}

/** The exhaustion of a table row. @internal */
export function exhaustionOfRow(row: BudgetExhaustionTableRow): StoredBudgetExhaustion {
  return {
    runId: row.run_id,
    ...(row.budget_key === null ? {} : { key: row.budget_key }),
    limit: row.limit_name,
    max: Number(row.max_value),
    at: row.at === 'tool_call' ? 'tool_call' : 'model_request',
    recordedAt: row.recorded_at,
  };
}

/** The totals of a key row as statement parameters: input, output, cost, tool calls, requests, in flight. @internal */
export function keyTotalsParameters(row: BudgetKeyRow): unknown[] {
  const { spent } = row;
  return [spent.inputTokens, spent.outputTokens, spent.costUsd, spent.toolCalls, spent.modelRequests, row.inFlight];
}

/** A reservation as statement parameters after its key, run and id: kind, state, amounts, output cap. @internal */
export function reservationParameters(row: BudgetReservationRow): unknown[] {
  const { amounts } = row;
  return [
    row.kind,
    row.state,
    amounts.inputTokens,
    amounts.outputTokens,
    amounts.costUsd,
    amounts.toolCalls,
    amounts.modelRequests,
    row.outputCap ?? null,
  ];
}
