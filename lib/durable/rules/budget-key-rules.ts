import type {
  BudgetKeyReservation,
  BudgetKeyReservationResult,
  BudgetKeyUsage,
  KeyBudgetLimitName,
  KeyBudgetLimits,
  KeyBudgetSpent,
  KeyBudgetState,
} from '../budget/budget-keys';
import { RunStoreError } from '../run-store-error';
import { checkId } from './value-rules';

/** What one reservation holds of its key (also the shape of a key's totals). @internal */
export interface BudgetAmounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly toolCalls: number;
  readonly modelRequests: number;
}

/** A key's stored row: its limits and its totals (reservations in flight included). @internal */
export interface BudgetKeyRow {
  readonly limits: KeyBudgetLimits;
  readonly spent: BudgetAmounts;
  readonly inFlight: number;
}

/** One stored reservation. `reserved`: in flight; `settled`: real usage; `released`: the request failed. @internal */
export interface BudgetReservationRow {
  readonly runId: string;
  readonly kind: 'model_request' | 'tool_call';
  readonly state: 'reserved' | 'settled' | 'released';
  readonly amounts: BudgetAmounts;
  /** The output cap the reservation granted; undefined when nothing capped it. */
  readonly outputCap?: number;
}

/** The rows a reservation, settlement or release writes back, in the caller's transaction. @internal */
export interface BudgetKeyWrites {
  readonly key: BudgetKeyRow;
  readonly reservation: BudgetReservationRow;
}

/** Nothing spent. @internal */
export const NO_BUDGET_AMOUNTS: BudgetAmounts = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  toolCalls: 0,
  modelRequests: 0,
});

const INTEGER_LIMITS = [
  'maxInputTokens',
  'maxOutputTokens',
  'maxTotalTokens',
  'maxToolCalls',
  'maxModelRequests',
] as const satisfies readonly KeyBudgetLimitName[];
const KNOWN_LIMITS: readonly string[] = [...INTEGER_LIMITS, 'maxCostUsd'];
const MILLION = 1_000_000;

/**
 * The limits of a key as stored: integer token and count limits >= 0, a finite `maxCostUsd` >= 0, no other field.
 * Throws `record_invalid` for a key or limits that cannot work. @internal
 */
export function checkKeyBudget(key: unknown, limits: unknown): KeyBudgetLimits {
  checkId(key, 'budget key');
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    throw new RunStoreError('record_invalid', 'key budget limits must be an object');
  const checked: Record<string, number> = {};
  for (const [name, value] of Object.entries(limits as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (!KNOWN_LIMITS.includes(name))
      throw new RunStoreError(
        'record_invalid',
        `unknown key budget limit '${name}' (known: ${KNOWN_LIMITS.join(', ')})`,
      );
    const integer = name !== 'maxCostUsd';
    const valid =
      typeof value === 'number' && value >= 0 && (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
    if (!valid)
      throw new RunStoreError(
        'record_invalid',
        `key budget ${name} must be ${integer ? 'an integer' : 'a finite number'} >= 0, got ${JSON.stringify(value)}`,
      );
    checked[name] = value;
  }
  return Object.freeze(checked);
}

/** The public state of a key row. @internal */
export function keyStateOf(key: string, row: BudgetKeyRow): KeyBudgetState {
  const spent: KeyBudgetSpent = { ...row.spent };
  return { key, limits: row.limits, spent, inFlight: row.inFlight };
}

/**
 * Decides a reservation against a key under the key's lock: the answer, and the rows to write (none when nothing
 * changes: a refusal, or an id reserved before that still holds its reservation). Throws `record_invalid` for a key
 * with `maxCostUsd` and a reservation without a price. @internal
 */
export function planKeyReservation(
  key: string,
  row: BudgetKeyRow,
  existing: BudgetReservationRow | undefined,
  reservation: BudgetKeyReservation,
): { readonly result: BudgetKeyReservationResult; readonly writes?: BudgetKeyWrites } {
  const state = keyStateOf(key, row);
  if (existing !== undefined && existing.state !== 'released')
    return { result: { granted: true, ...capOf(existing.outputCap), state } };
  const { limits, spent } = row;
  const refuse = (limit: KeyBudgetLimitName) => ({
    result: { granted: false as const, limit, max: limits[limit] ?? 0, state },
  });
  if (reservation.kind === 'tool_call') {
    if (limits.maxToolCalls !== undefined && spent.toolCalls + 1 > limits.maxToolCalls) return refuse('maxToolCalls');
    const tripped = overLimit(limits, spent);
    if (tripped !== undefined) return refuse(tripped);
    const amounts = { ...NO_BUDGET_AMOUNTS, toolCalls: 1 };
    const writes = {
      key: { ...row, spent: add(spent, amounts) },
      reservation: { runId: reservation.runId, kind: 'tool_call' as const, state: 'settled' as const, amounts },
    };
    return { result: { granted: true, state: keyStateOf(key, writes.key) }, writes };
  }
  const inputTokens = reservation.inputTokens ?? 0;
  const price = reservation.price;
  if (limits.maxCostUsd !== undefined && price === undefined)
    throw new RunStoreError(
      'record_invalid',
      `budget key '${key}' has maxCostUsd: the run needs a price for its model (modelPrices)`,
    );
  // A released request was counted when it was first reserved.
  const counted = existing !== undefined;
  if (!counted && limits.maxModelRequests !== undefined && spent.modelRequests + 1 > limits.maxModelRequests)
    return refuse('maxModelRequests');
  const tripped = overLimit(limits, spent);
  if (tripped !== undefined) return refuse(tripped);
  if (limits.maxInputTokens !== undefined && spent.inputTokens + inputTokens > limits.maxInputTokens)
    return refuse('maxInputTokens');
  const caps: [KeyBudgetLimitName, number][] = [];
  if (limits.maxOutputTokens !== undefined) caps.push(['maxOutputTokens', limits.maxOutputTokens - spent.outputTokens]);
  if (limits.maxTotalTokens !== undefined)
    caps.push(['maxTotalTokens', limits.maxTotalTokens - spent.inputTokens - spent.outputTokens - inputTokens]);
  if (limits.maxCostUsd !== undefined && price !== undefined) {
    const left = limits.maxCostUsd - spent.costUsd - (inputTokens * price.inputUsdPerMillionTokens) / MILLION;
    const perToken = price.outputUsdPerMillionTokens / MILLION;
    caps.push(['maxCostUsd', left <= 0 ? 0 : perToken === 0 ? Number.MAX_SAFE_INTEGER : Math.floor(left / perToken)]);
  }
  for (const [name, cap] of caps) if (cap < 1) return refuse(name);
  const wanted = reservation.outputTokens;
  const allowed = [...caps.map(([, cap]) => cap), ...(wanted === undefined ? [] : [wanted])];
  const outputCap = allowed.length === 0 ? undefined : Math.min(...allowed);
  const amounts: BudgetAmounts = {
    inputTokens,
    outputTokens: outputCap ?? 0,
    costUsd: price === undefined ? 0 : costOf(price, inputTokens, outputCap ?? 0),
    toolCalls: 0,
    modelRequests: 1,
  };
  const reserved: BudgetKeyRow = {
    ...row,
    spent: add(spent, amounts, existing?.amounts),
    inFlight: row.inFlight + 1,
  };
  const writes: BudgetKeyWrites = {
    key: reserved,
    reservation: {
      runId: reservation.runId,
      kind: 'model_request',
      state: 'reserved',
      amounts,
      ...(outputCap === undefined ? {} : { outputCap }),
    },
  };
  return { result: { granted: true, ...capOf(outputCap), state: keyStateOf(key, reserved) }, writes };
}

/** The rows a settlement writes: the reservation replaced by the real usage; none unless it is in flight. @internal */
export function planKeySettlement(
  row: BudgetKeyRow,
  existing: BudgetReservationRow | undefined,
  usage: BudgetKeyUsage,
): BudgetKeyWrites | undefined {
  if (existing === undefined || existing.state !== 'reserved') return undefined;
  const amounts: BudgetAmounts = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.costUsd,
    toolCalls: 0,
    modelRequests: 1,
  };
  return {
    key: { ...row, spent: add(row.spent, amounts, existing.amounts), inFlight: Math.max(0, row.inFlight - 1) },
    reservation: { ...existing, state: 'settled', amounts },
  };
}

/** The rows a release writes: the reservation's tokens and cost dropped, the request still counted. @internal */
export function planKeyRelease(
  row: BudgetKeyRow,
  existing: BudgetReservationRow | undefined,
): BudgetKeyWrites | undefined {
  if (existing === undefined || existing.state !== 'reserved') return undefined;
  const amounts = { ...NO_BUDGET_AMOUNTS, modelRequests: 1 };
  return {
    key: { ...row, spent: add(row.spent, amounts, existing.amounts), inFlight: Math.max(0, row.inFlight - 1) },
    reservation: { ...existing, state: 'released', amounts },
  };
}

/** Checks the usage a reservation is settled to: integer token counts and a cost, each >= 0. @internal */
export function checkKeyUsage(usage: BudgetKeyUsage): void {
  const valid =
    [usage?.inputTokens, usage?.outputTokens].every((value) => Number.isSafeInteger(value) && value >= 0) &&
    typeof usage.costUsd === 'number' &&
    Number.isFinite(usage.costUsd) &&
    usage.costUsd >= 0;
  if (!valid) throw new RunStoreError('record_invalid', 'budget usage needs integer tokens and a cost, each >= 0');
}

/** Checks a reservation's identity and kind; throws `record_invalid`. @internal */
export function checkReservation(reservation: BudgetKeyReservation): void {
  checkId(reservation?.runId, 'runId');
  checkId(reservation.reservationId, 'reservationId');
  if (reservation.kind !== 'model_request' && reservation.kind !== 'tool_call')
    throw new RunStoreError('record_invalid', `reservation kind must be 'model_request' or 'tool_call'`);
  const { inputTokens, outputTokens } = reservation;
  for (const [name, value] of [
    ['inputTokens', inputTokens],
    ['outputTokens', outputTokens],
  ] as const)
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      throw new RunStoreError('record_invalid', `reservation ${name} must be an integer >= 0`);
}

/** The error of a reservation against a key never set. @internal */
export function keyNotFound(key: string): RunStoreError {
  return new RunStoreError('budget_key_not_found', `No budget is set for key '${key}' (setKeyBudget first)`);
}

function overLimit(limits: KeyBudgetLimits, spent: BudgetAmounts): KeyBudgetLimitName | undefined {
  if (limits.maxInputTokens !== undefined && spent.inputTokens > limits.maxInputTokens) return 'maxInputTokens';
  if (limits.maxOutputTokens !== undefined && spent.outputTokens > limits.maxOutputTokens) return 'maxOutputTokens';
  if (limits.maxTotalTokens !== undefined && spent.inputTokens + spent.outputTokens > limits.maxTotalTokens)
    return 'maxTotalTokens';
  if (limits.maxCostUsd !== undefined && spent.costUsd > limits.maxCostUsd) return 'maxCostUsd';
  return undefined;
}

function costOf(price: NonNullable<BudgetKeyReservation['price']>, input: number, output: number): number {
  return (input * price.inputUsdPerMillionTokens + output * price.outputUsdPerMillionTokens) / MILLION;
}

/** `total + amounts - replaced`. */
function add(total: BudgetAmounts, amounts: BudgetAmounts, replaced: BudgetAmounts = NO_BUDGET_AMOUNTS): BudgetAmounts {
  return {
    inputTokens: total.inputTokens + amounts.inputTokens - replaced.inputTokens,
    outputTokens: total.outputTokens + amounts.outputTokens - replaced.outputTokens,
    costUsd: Math.max(0, total.costUsd + amounts.costUsd - replaced.costUsd),
    toolCalls: total.toolCalls + amounts.toolCalls - replaced.toolCalls,
    modelRequests: total.modelRequests + amounts.modelRequests - replaced.modelRequests,
  };
}

function capOf(outputCap: number | undefined): { outputTokens?: number } {
  return outputCap === undefined ? {} : { outputTokens: outputCap };
}
