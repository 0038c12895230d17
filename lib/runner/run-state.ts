import { ChatMessage, ModelUsage } from '../model/model-types';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunnerClock } from './runner-clock';

/** Mutable state of one run, owned by the runner while `complete()` is running. */
export interface RunState {
  readonly runId: string;
  readonly options: LlmAgentRunOptions;
  readonly clock: RunnerClock;
  readonly messages: ChatMessage[];
  readonly toolCalls: ToolCallResult[];
  usage: ModelUsage;
  steps: number;
  text: string;
  stopReason?: LlmAgentStopReason;
}
