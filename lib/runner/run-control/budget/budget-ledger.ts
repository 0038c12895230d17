import { mergeOwn } from '../../../outcome/merge-own';
import type { ModelUsage } from '../../../model/model-types';
import type {
  BudgetExhaustion,
  BudgetLimitName,
  BudgetRemaining,
  BudgetReport,
  ModelPrice,
  RunBudget,
} from './run-budget';
import { costOfUsage } from './model-cost';

/** The room a model request got: its estimated input and the output cap it is sent with. */
export interface ModelRequestReservation {
  readonly inputTokens: number;
  /** The request's `maxOutputTokens`; absent when no limit caps the output. */
  readonly outputTokens?: number;
}

const MILLION = 1_000_000;

/**
 * What one run spent against its budget: settled usage, the reservation of the request in flight, and the calls let
 * through (by turn and call id, so a resumed or re-run call is counted once). @internal
 */
export class RunBudgetLedger {
  inputTokens = 0;
  outputTokens = 0;
  costUsd = 0;
  modelRequests = 0;
  readonly countedCalls = new Set<string>();
  exhausted?: BudgetExhaustion;
  private reservation?: ModelRequestReservation;

  constructor(
    readonly limits: RunBudget,
    readonly price: ModelPrice | undefined,
    /** When the run was created, in ms since the epoch (a resumed run: its record's `createdAt`). */
    public startedAtMs: number,
  ) {}

  /** Whether the stored assistant messages must carry their usage (a token or cost limit is set). */
  get recordsUsage(): boolean {
    const { maxInputTokens, maxOutputTokens, maxTotalTokens, maxCostUsd } = this.limits;
    return [maxInputTokens, maxOutputTokens, maxTotalTokens, maxCostUsd].some((limit) => limit !== undefined);
  }

  /**
   * Reserves a model request with `estimatedInputTokens` of input: its output cap, or the limit it would cross
   * (nothing is reserved then). The request counts at once, whatever comes of it.
   */
  reserveModelRequest(estimatedInputTokens: number, nowMs: number): ModelRequestReservation | BudgetLimitName {
    const { maxModelRequests, maxInputTokens, maxOutputTokens, maxTotalTokens, maxCostUsd } = this.limits;
    const tripped = this.overLimit(nowMs);
    if (tripped !== undefined) return tripped;
    if (maxModelRequests !== undefined && this.modelRequests >= maxModelRequests) return 'maxModelRequests';
    if (maxInputTokens !== undefined && this.inputTokens + estimatedInputTokens > maxInputTokens)
      return 'maxInputTokens';
    const caps: [BudgetLimitName, number][] = [];
    if (maxOutputTokens !== undefined) caps.push(['maxOutputTokens', maxOutputTokens - this.outputTokens]);
    if (maxTotalTokens !== undefined)
      caps.push(['maxTotalTokens', maxTotalTokens - this.inputTokens - this.outputTokens - estimatedInputTokens]);
    if (maxCostUsd !== undefined && this.price !== undefined) {
      const left = maxCostUsd - this.costUsd - (estimatedInputTokens * this.price.inputUsdPerMillionTokens) / MILLION;
      const perToken = this.price.outputUsdPerMillionTokens / MILLION;
      caps.push(['maxCostUsd', left <= 0 ? 0 : perToken === 0 ? Number.MAX_SAFE_INTEGER : Math.floor(left / perToken)]);
    }
    for (const [name, cap] of caps) if (cap < 1) return name;
    const outputTokens = caps.length === 0 ? undefined : Math.min(...caps.map(([, cap]) => cap));
    this.modelRequests++;
    this.reservation = { inputTokens: estimatedInputTokens, outputTokens };
    return this.reservation;
  }

  /** Replaces the reservation of the request in flight by its real usage. */
  settleModelRequest(usage: ModelUsage): void {
    this.reservation = undefined;
    this.addUsage(usage);
  }

  /** Takes back a reservation whose request is not sent after all (the run's budget key refused it). */
  cancelModelRequest(): void {
    if (this.reservation === undefined) return;
    this.reservation = undefined;
    this.modelRequests--;
  }

  /** Drops the reservation of a request that failed (its usage is unknown; the request still counts). */
  releaseModelRequest(): void {
    this.reservation = undefined;
  }

  /** Adds the usage of a model response (a settled request, or one of the record). */
  addUsage(usage: ModelUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    if (this.price !== undefined) this.costUsd += costOfUsage(this.price, usage);
  }

  /**
   * Lets a tool call through, or answers the limit it would cross. A call already counted (`key`: its turn and call
   * id) passes again without counting twice.
   */
  reserveToolCall(key: string, nowMs: number): BudgetLimitName | undefined {
    if (this.countedCalls.has(key)) return undefined;
    const tripped = this.overLimit(nowMs);
    if (tripped !== undefined) return tripped;
    const { maxToolCalls } = this.limits;
    if (maxToolCalls !== undefined && this.countedCalls.size >= maxToolCalls) return 'maxToolCalls';
    this.countedCalls.add(key);
    return undefined;
  }

  /** The report of the run's budget at `nowMs`. */
  report(nowMs: number): BudgetReport {
    const wallMs = Math.max(0, nowMs - this.startedAtMs);
    const spent = {
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      ...(this.price === undefined ? {} : { costUsd: this.costUsd }),
      toolCalls: this.countedCalls.size,
      modelRequests: this.modelRequests,
      wallMs,
    };
    const report = { limits: this.limits, spent, remaining: this.remaining(nowMs) };
    return this.exhausted === undefined ? report : mergeOwn(report, { exhausted: this.exhausted });
  }

  /** What each limit still allows, net of the reservation in flight; never below 0. */
  remaining(nowMs: number): BudgetRemaining {
    const reservedIn = this.reservation?.inputTokens ?? 0;
    const reservedOut = this.reservation?.outputTokens ?? 0;
    const spentBy: Record<BudgetLimitName, number> = {
      maxInputTokens: this.inputTokens + reservedIn,
      maxOutputTokens: this.outputTokens + reservedOut,
      maxTotalTokens: this.inputTokens + this.outputTokens + reservedIn + reservedOut,
      maxCostUsd: this.costUsd + this.reservedCostUsd(),
      maxToolCalls: this.countedCalls.size,
      maxModelRequests: this.modelRequests,
      maxWallMs: Math.max(0, nowMs - this.startedAtMs),
    };
    const remaining: Partial<Record<BudgetLimitName, number>> = {};
    for (const name of Object.keys(spentBy) as BudgetLimitName[]) {
      const limit = this.limits[name];
      if (limit !== undefined) remaining[name] = Math.max(0, limit - spentBy[name]);
    }
    return remaining;
  }

  /** A limit already reached by what was spent (tokens, cost, wall time), so nothing more may start. */
  private overLimit(nowMs: number): BudgetLimitName | undefined {
    const { maxInputTokens, maxOutputTokens, maxTotalTokens, maxCostUsd, maxWallMs } = this.limits;
    if (maxWallMs !== undefined && nowMs - this.startedAtMs >= maxWallMs) return 'maxWallMs';
    if (maxInputTokens !== undefined && this.inputTokens > maxInputTokens) return 'maxInputTokens';
    if (maxOutputTokens !== undefined && this.outputTokens > maxOutputTokens) return 'maxOutputTokens';
    if (maxTotalTokens !== undefined && this.inputTokens + this.outputTokens > maxTotalTokens) return 'maxTotalTokens';
    if (maxCostUsd !== undefined && this.costUsd > maxCostUsd) return 'maxCostUsd';
    return undefined;
  }

  private reservedCostUsd(): number {
    if (this.reservation === undefined || this.price === undefined) return 0;
    return (
      (this.reservation.inputTokens * this.price.inputUsdPerMillionTokens +
        (this.reservation.outputTokens ?? 0) * this.price.outputUsdPerMillionTokens) /
      MILLION
    );
  }
}
