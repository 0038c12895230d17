import type { ModelStepper } from '../../model/model-stepper';
import { messageOf } from '../../errors/message-of';
import type { LlmAgentRunOptions } from '../run-options';
import { LlmAgentError } from '../runner-error';
import { RunBudgetLedger } from './budget/budget-ledger';
import { checkBudget } from './budget/check-budget';
import { KeyBudget, newKeyBudget } from './budget/key-budget';
import type { BudgetExhaustion, ModelPrice } from './budget/run-budget';
import type { ToolChoice } from './tool-control';
import { checkedGuardrails, RunGuardrails } from './guardrails/check-guardrails';
import { GuardrailRunState, newGuardrailRunState } from './guardrails/guardrail-stop';
import type { ToolCallCounts } from './tool-call-limit';
import type { StopCondition } from './stop-conditions';

/** The run-control state of one run: the tools of the current step and the budget's ledger. @internal */
export interface RunControl {
  /** The tools offered in the current model step, by name; undefined when every tool is. */
  activeTools?: ReadonlySet<string>;
  /** Names of the runner's tools (the provider's). */
  readonly toolNames: ReadonlySet<string>;
  /** The final-answer tool of a run with `output` in tool mode: always offered, whatever `activeTools` says. */
  readonly finalAnswerTool?: string;
  readonly ledger?: RunBudgetLedger;
  /** The decisions of the run's guardrails that stop it, and its parallel input guardrails. */
  readonly guardrails: GuardrailRunState;
  /** The run's guardrails as checked when it started (read once; the options are not read again). */
  readonly configuredGuardrails: RunGuardrails;
  /** The run's `stopWhen` conditions as checked when it started. */
  readonly stopConditions: readonly StopCondition[];
  /** The calls of each tool let through so far (the contracts' `maxCalls`). */
  readonly toolCallCounts: ToolCallCounts;
  /** The price of the run's model, from `modelPrices`. */
  readonly price?: ModelPrice;
  /** The run's `budgetKey` and the store keeping its spending. */
  readonly keyBudget?: KeyBudget;
  /** The limit that stopped the run (the first one that tripped). */
  exhausted?: BudgetExhaustion;
}

/**
 * The run-control state of a new run from its merged options; throws `invalid_run_options` for a `toolChoice`,
 * `activeTools`, `prepareStep`, `stopWhen`, `budget`, `modelPrices`, `budgetKey` or guardrails that cannot work
 * (before any request). @internal
 */
export function newRunControl(
  options: LlmAgentRunOptions,
  model: ModelStepper,
  toolNames: ReadonlySet<string>,
  finalAnswerTool: string | undefined,
  nowMs: number,
): RunControl {
  const { prepareStep, stopWhen } = options;
  if (prepareStep !== undefined && typeof prepareStep !== 'function')
    throw new LlmAgentError('invalid_run_options', `prepareStep must be a function, got ${messageOf(prepareStep)}`);
  const conditions: readonly unknown[] = Array.isArray(stopWhen)
    ? Array.from(stopWhen as readonly unknown[])
    : stopWhen === undefined
      ? []
      : [stopWhen];
  if (!conditions.every((condition) => typeof condition === 'function'))
    throw new LlmAgentError('invalid_run_options', 'stopWhen must be a function or an array of functions');
  const activeTools = checkActiveTools(options.activeTools, toolNames, 'activeTools');
  if (options.toolChoice !== undefined)
    checkToolChoice(options.toolChoice, model, offeredTools(activeTools ?? toolNames, finalAnswerTool), 'toolChoice');
  const { budget, price } = checkBudget(options.budget, options.modelPrices, model.modelName);
  const ledger = budget === undefined ? undefined : new RunBudgetLedger(budget, price, nowMs);
  const configuredGuardrails = checkedGuardrails(options, toolNames);
  const keyBudget = newKeyBudget(options);
  return {
    toolNames,
    finalAnswerTool,
    activeTools,
    ...(ledger === undefined ? {} : { ledger }),
    ...(price === undefined ? {} : { price }),
    ...(keyBudget === undefined ? {} : { keyBudget }),
    guardrails: newGuardrailRunState(),
    configuredGuardrails,
    stopConditions: conditions as readonly StopCondition[],
    toolCallCounts: new Map(),
  };
}

/** The tools a request offers: the active ones and the final-answer tool. @internal */
export function offeredTools(active: ReadonlySet<string>, finalAnswerTool: string | undefined): ReadonlySet<string> {
  return finalAnswerTool === undefined ? active : new Set([...active, finalAnswerTool]);
}

/** The set of active tools `names` asks for; `invalid_run_options` for a name the run has no tool of. @internal */
export function checkActiveTools(
  names: readonly string[] | undefined,
  toolNames: ReadonlySet<string>,
  source: string,
): ReadonlySet<string> | undefined {
  if (names === undefined) return undefined;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))
    throw new LlmAgentError('invalid_run_options', `${source} must be an array of tool names`);
  const unknown = names.filter((name) => !toolNames.has(name));
  if (unknown.length > 0)
    throw new LlmAgentError(
      'invalid_run_options',
      `${source} names tools the runner does not have: ${unknown.join(', ')} (available: ${[...toolNames].join(', ')})`,
    );
  return new Set(names);
}

/**
 * Throws `invalid_run_options` for a tool choice that is malformed, names a tool that is not offered, or that the
 * model client cannot send (`supportsToolChoice`). @internal
 */
export function checkToolChoice(
  choice: ToolChoice,
  model: ModelStepper,
  offered: ReadonlySet<string>,
  source: string,
): void {
  const named = typeof choice === 'object' && choice !== null && typeof choice.tool === 'string';
  if (!named && choice !== 'auto' && choice !== 'required' && choice !== 'none')
    throw new LlmAgentError(
      'invalid_run_options',
      `${source} must be 'auto', 'required', 'none' or { tool }, got ${messageOf(JSON.stringify(choice))}`,
    );
  if (named && !offered.has(choice.tool))
    throw new LlmAgentError('invalid_run_options', `${source} names tool '${choice.tool}', which is not offered`);
  if (choice === 'required' && offered.size === 0)
    throw new LlmAgentError('invalid_run_options', `${source} 'required' needs at least one offered tool`);
  if (!clientSendsToolChoice(model, choice))
    throw new LlmAgentError(
      'invalid_run_options',
      `${source} ${JSON.stringify(choice)}: the model client '${model.modelName}' cannot send a tool choice (supportsToolChoice)`,
    );
}

/** Whether the client says it can send `choice`; a throwing `supportsToolChoice` says no. */
function clientSendsToolChoice(model: ModelStepper, choice: ToolChoice): boolean {
  try {
    return model.supportsToolChoice?.(choice) === true;
  } catch {
    return false;
  }
}
