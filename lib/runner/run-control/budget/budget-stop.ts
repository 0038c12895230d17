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

  constructor(steps: StepContext, run: RunInProgress, tripped: TrippedLimit) {
    const exhaustion = exhaust(steps, run, tripped);
    super(`${budgetOf(exhaustion)} is exhausted (${exhaustion.limit} ${exhaustion.max})`);
    this.name = 'BudgetStop';
    this.exhaustion = exhaustion;
  }

  static isInstance(value: unknown): value is BudgetStop {
    return typeof value === 'object' && value !== null && BUDGET_STOP_MARKER in value;
  }
}

/** A limit that tripped: of the run's own budget (its `max` read from the ledger), or of its budget key. @internal */
export type TrippedLimit =
  | { readonly limit: BudgetLimitName; readonly at: BudgetExhaustion['at'] }
  | {
      readonly limit: BudgetLimitName;
      readonly at: BudgetExhaustion['at'];
      readonly key: string;
      readonly max: number;
    };

/**
 * Records that a limit stopped the run (the first limit that trips is kept), reports `budget_exhausted` once, and
 * answers the exhaustion. @internal
 */
export function exhaust(steps: StepContext, run: RunInProgress, tripped: TrippedLimit): BudgetExhaustion {
  const control = run.control;
  const ledger = control?.ledger;
  const exhaustion: BudgetExhaustion =
    'key' in tripped
      ? { limit: tripped.limit, key: tripped.key, max: tripped.max, at: tripped.at }
      : { limit: tripped.limit, max: ledger?.limits[tripped.limit] ?? 0, at: tripped.at };
  if (control === undefined) return exhaustion;
  if (control.exhausted !== undefined) return control.exhausted;
  control.exhausted = exhaustion;
  if (ledger !== undefined) ledger.exhausted = exhaustion;
  steps.emit(run, { type: 'budget_exhausted', runId: run.runId, ...exhaustion });
  return exhaustion;
}

/** How a message names the budget that tripped. @internal */
export function budgetOf(exhaustion: BudgetExhaustion): string {
  return exhaustion.key === undefined ? "the run's budget" : `the budget of key '${exhaustion.key}'`;
}
