import { ChatMessage, ModelUsage, ToolMessagePart } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import type { BudgetReport, KeyBudgetReport } from './run-control/budget/run-budget';
import type { GuardrailDecision } from './run-control/guardrails/guardrail-types';

/**
 * Why a run ended. `budget_exhausted`: a limit of the run's `budget` or `budgetKey` stopped it (see `result.budget`,
 * `result.keyBudget`); `stop_condition`: one of its `stopWhen` conditions held. Both are stored as `stopped`, so the
 * run can be resumed. `guardrail_tripped`: a guardrail's tripwire stopped it (stored `cancelled`: it cannot be
 * resumed); `guardrail_rejected`: an input guardrail refused the input (stored `completed`). See `result.guardrail`.
 */
export type LlmAgentStopReason =
  | 'end_turn'
  | 'max_steps'
  | 'aborted'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'awaiting_approval'
  | 'budget_exhausted'
  | 'stop_condition'
  | 'guardrail_tripped'
  | 'guardrail_rejected'
  | 'other';

/**
 * One tool call of a run with its complete outcome. `Name` and `Outcome` type the call to one tool
 * (see `ToolCallResultOf`); by default any name and any outcome.
 */
export interface ToolCallResult<Name extends string = string, Outcome extends ToolOutcome = ToolOutcome> {
  readonly callId: string;
  /** The turn that asked for the call (see `ToolCallRequest.turn`). */
  readonly turn: number;
  readonly toolName: Name;
  /** The arguments as the model sent them. */
  readonly rawArguments: string | JsonObject;
  /** The parsed and validated arguments, when they were valid. */
  readonly arguments?: JsonObject;
  /** The complete outcome (never truncated). */
  readonly outcome: Outcome;
  /** What the model was shown instead of `outcome`: the refusal of a tool's `after` guardrail. */
  readonly modelOutcome?: ToolOutcome;
  /** Attempts made (0 when refused before dispatch). */
  readonly attempts: number;
  readonly idempotencyKey: string;
  /** The Tool message the model saw (projected within the ceilings). */
  readonly content: string;
  /** What the projection did; absent when projection failed. */
  readonly projection?: ToolOutputProjectionReport;
  /** The images (and notes about omitted ones) the model saw after `content`; absent when the outcome had none. */
  readonly parts?: readonly ToolMessagePart[];
  readonly durationMs: number;
  /** True when the complete outcome is admitted to the run's store (durable runs). */
  readonly admitted?: boolean;
  /** True when the call waits for a stored approval decision; the run is suspended. */
  readonly awaitingApproval?: boolean;
}

/**
 * The result of `complete()`; `Call` types its tool calls (see `ToolCallResultOf`), `Output` is the type
 * of `output` for a run with `output`.
 */
export interface LlmAgentRunResult<Call extends ToolCallResult = ToolCallResult, Output = unknown> {
  readonly runId: string;
  /** The model's final text. */
  readonly text: string;
  /** The full message history, prompt first. */
  readonly messages: readonly ChatMessage[];
  readonly toolCalls: readonly Call[];
  readonly usage: ModelUsage;
  readonly stopReason: LlmAgentStopReason;
  /** Model requests made. */
  readonly steps: number;
  /** The run's budget: limits, spent, remaining, and the limit that stopped it; present for a run with `budget`. */
  readonly budget?: BudgetReport;
  /** The guardrail decision that stopped the run (stop reason `guardrail_tripped` or `guardrail_rejected`). */
  readonly guardrail?: GuardrailDecision;
  /**
   * The run's budget key: its limits, what all its runs spent and what is left (as the run's last reservation saw
   * it), and the key's limit that stopped the run; present for a run with `budgetKey` once it reserved.
   */
  readonly keyBudget?: KeyBudgetReport;
  /**
   * The validated final answer of a run with `output`; present when the run ended with it (`stopReason` `end_turn`).
   */
  readonly output?: Output;
}
