import type { ChatMessage, ModelToolChoice, ModelUsage } from '../../model/model-types';
import type { ToolCallResult } from '../run-result';
import type { BudgetRemaining } from './budget/run-budget';

/**
 * Which tools the model may or must call in a request: `auto` (the model decides), `required` (at least one tool),
 * `none` (no tool call) or `{ tool }` (that one tool). The same as the model seam's `ModelToolChoice`.
 */
export type ToolChoice = ModelToolChoice;

/** What `prepareStep` sees before a model request. */
export interface StepPreparationInput {
  readonly runId: string;
  /** The model request about to be made, from 1 (a resumed run goes on counting from its record). */
  readonly step: number;
  /** The conversation so far (what the request would send). */
  readonly messages: readonly ChatMessage[];
  /** The run's tool calls so far. */
  readonly toolCalls: readonly ToolCallResult[];
  readonly usage: ModelUsage;
  /** What the run's `budget` still allows; absent without a budget. */
  readonly budget?: BudgetRemaining;
}

/**
 * What `prepareStep` may change for one model request; every field optional, an absent one keeps the run's.
 * `messages` and `system` change what this request sends only: the run's record and history keep their own.
 */
export interface PreparedStep {
  /** The tools offered in this request (by name); calls of other tools are refused `tool_not_active`. */
  readonly activeTools?: readonly string[];
  readonly toolChoice?: ToolChoice;
  readonly system?: string;
  readonly messages?: readonly ChatMessage[];
}

/**
 * Called before each model request; answers what to change for that request (or nothing). A throw or rejection
 * fails the run (nothing is sent); an answer naming an unknown tool or a tool choice the client cannot send is
 * `invalid_run_options`.
 */
export type PrepareStep = (
  step: StepPreparationInput,
) => PreparedStep | undefined | void | Promise<PreparedStep | undefined | void>;
