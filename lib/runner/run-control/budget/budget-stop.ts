import type { RunInProgress } from '../../run-state';
import type { StepContext } from '../../tool-call/step-context';
import type { BudgetExhaustion, BudgetLimitName } from './run-budget';

const BUDGET_STOP_MARKER = Symbol.for('wuwe.runner.BudgetStop');

/**
 * Thrown by the model request step when the run's budget does not allow the request: the run stops with stop
 * reason `budget_exhausted` (never a failure). Records the exhaustion on the ledger and reports `budget_exhausted`.
 * @internal
 */
export class BudgetStop extends Error {
  private readonly [BUDGET_STOP_MARKER] = true;
  readonly exhaustion: BudgetExhaustion;

  constructor(steps: StepContext, run: RunInProgress, limit: BudgetLimitName, at: BudgetExhaustion['at']) {
    const exhaustion = exhaust(steps, run, limit, at);
    super(`the run's budget is exhausted (${exhaustion.limit} ${exhaustion.max})`);
    this.name = 'BudgetStop';
    this.exhaustion = exhaustion;
  }

  static isInstance(value: unknown): value is BudgetStop {
    return typeof value === 'object' && value !== null && BUDGET_STOP_MARKER in value;
  }
}

/**
 * Records that `limit` stopped the run (the first limit that trips is kept), reports `budget_exhausted` once, and
 * answers the exhaustion. @internal
 */
export function exhaust(
  steps: StepContext,
  run: RunInProgress,
  limit: BudgetLimitName,
  at: BudgetExhaustion['at'],
): BudgetExhaustion {
  const ledger = run.control?.ledger;
  const exhaustion = { limit, max: ledger?.limits[limit] ?? 0, at };
  if (ledger === undefined || ledger.exhausted !== undefined) return ledger?.exhausted ?? exhaustion;
  ledger.exhausted = exhaustion;
  steps.emit(run, { type: 'budget_exhausted', runId: run.runId, ...exhaustion });
  return exhaustion;
}
