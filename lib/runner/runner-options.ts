import type { HandoffTarget } from './handoff/handoff';
import type { LlmAgentRunOptions } from './run-options';

/**
 * Options of an `LlmAgentRunner`: the defaults of its runs (merged under the options of `complete()`), and what
 * describes the agent itself, read once when the runner is built.
 */
export interface LlmAgentRunnerOptions extends LlmAgentRunOptions {
  /**
   * The agent's name: a handoff to this runner is named after it (`transfer_to_<name>`), and its transfers record it
   * as `from`. Needed when `handoffs` is given. @default none
   */
  readonly name?: string;
  /**
   * Agents this one can hand the conversation over to: the model gets one transfer tool a target
   * (`transfer_to_<name>`), and its call continues the same run with the target's instructions (`system`), tools and
   * model. A name that no tool name can carry, or that another tool already has, throws `HandoffError`
   * `invalid_handoff` here. See `handoff()`. @default none
   */
  readonly handoffs?: readonly HandoffTarget[];
}
