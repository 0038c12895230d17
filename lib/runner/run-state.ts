import { ChatMessage, ModelUsage } from '../model/model-types';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunnerClock } from './runner-clock';
import { RunRecorder } from './run-recorder';

/** Mutable state of one run, owned by the runner while `complete()` is running. */
export interface RunState {
  readonly runId: string;
  /** The merged options; the signal is replaced by one that also aborts when the lease is lost. */
  options: LlmAgentRunOptions;
  /** Writes the durable record; absent without a store. @internal */
  readonly recorder?: RunRecorder;
  readonly clock: RunnerClock;
  readonly messages: ChatMessage[];
  readonly toolCalls: ToolCallResult[];
  usage: ModelUsage;
  steps: number;
  text: string;
  stopReason?: LlmAgentStopReason;
}
