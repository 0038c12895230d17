import { ChatMessage, ModelUsage } from '../model/model-types';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunnerClock } from './runner-clock';
import { RunRecorder } from './durable/run-recorder';
import { RunStreamChannel } from './stream/run-stream';
import { FinalAnswerState } from './structured-output/final-answer';
import type { RunControl } from './run-control/run-control';
import type { ActiveHandoff } from './handoff/handoff-run';

/** Mutable state of one run, owned by the runner while `complete()` is running. */
export interface RunInProgress {
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
  /**
   * The turn of the calls now executing: the model step that asked for them (the ordinal of its assistant
   * message). Set by `runStep`, by `resume` for the last turn's pending calls, and from `invokeToolCall`'s option.
   */
  turn: number;
  /**
   * Idempotency keys of calls the resumed record already holds, by turn and call id: a call keeps the key it was
   * recorded with (one recorded before schema version 2 has a key derived without its turn).
   */
  recordedKeys?: ReadonlyMap<string, string>;
  text: string;
  stopReason?: LlmAgentStopReason;
  /** The final-answer state of a run with `output`. @internal */
  readonly output?: FinalAnswerState;
  /** Tool control and budget of the run (`activeTools`, `toolChoice`, `budget`). @internal */
  control?: RunControl;
  /** The channel a run of `stream()` or `resumeStream()` reports to. @internal */
  stream?: RunStreamChannel;
  /** The agent holding the run after a handoff (its steps, name and input filter). @internal */
  handoff?: ActiveHandoff;
}
