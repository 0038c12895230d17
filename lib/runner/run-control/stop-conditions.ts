import { messageOf } from '../../errors/message-of';
import type { ChatMessage, ModelUsage } from '../../model/model-types';
import type { ToolCallResult } from '../run-result';
import type { RunInProgress } from '../run-state';
import { LlmAgentError } from '../runner-error';

/** What a stop condition sees after a model step whose tool calls ran. */
export interface StopConditionState {
  readonly runId: string;
  /** Model requests made so far (a resumed run counts those of its record). */
  readonly steps: number;
  /** The tool calls of the step that just ended. */
  readonly stepToolCalls: readonly ToolCallResult[];
  /** Every tool call of the run (in this process). */
  readonly toolCalls: readonly ToolCallResult[];
  readonly messages: readonly ChatMessage[];
  readonly usage: ModelUsage;
}

/**
 * Stops the run (stop reason `stop_condition`) when it answers true. A throw fails the run with `run_hook_failed`, an
 * answer that is not a boolean with `invalid_run_options`.
 */
export type StopCondition = (state: StopConditionState) => boolean;

/** Stops once `count` model requests were made. */
export function stepCountIs(count: number): StopCondition {
  return (state) => state.steps >= count;
}

/** Stops after a step in which the model called the tool `toolName` (whatever its outcome). */
export function hasToolCall(toolName: string): StopCondition {
  return (state) => state.stepToolCalls.some((call) => call.toolName === toolName);
}

/**
 * Whether one of the run's `stopWhen` conditions holds after a step with tool calls (the step's calls are those of
 * `run.turn`). Not asked after a step that set a stop reason itself. @internal
 */
export function stopConditionHolds(run: RunInProgress): boolean {
  // The conditions as checked when the run started: an array changed since changes nothing.
  const conditions = run.control?.stopConditions ?? [];
  if (conditions.length === 0) return false;
  const state: StopConditionState = {
    runId: run.runId,
    steps: run.steps,
    stepToolCalls: run.toolCalls.filter((call) => call.turn === run.turn),
    toolCalls: run.toolCalls,
    messages: run.messages,
    usage: run.usage,
  };
  return conditions.some((condition, index) => {
    let answer: unknown;
    try {
      answer = condition(state);
    } catch (error) {
      throw new LlmAgentError('run_hook_failed', `stopWhen condition ${index} threw: ${messageOf(error)}`, {
        cause: error,
      });
    }
    if (typeof answer !== 'boolean')
      throw new LlmAgentError(
        'invalid_run_options',
        `stopWhen condition ${index} must answer true or false, got ${messageOf(answer)}`,
      );
    return answer;
  });
}
