import { ModelResponse } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { LlmAgentRunResult } from './run-result';

/**
 * One event of `runner.stream()`, in the order the run produces them.
 *
 * - `run_started`: the run began (first event).
 * - `text_delta`: a piece of the model's text in step `step`.
 * - `tool_call_started`: the model began a tool call (`index` is its position in the step's
 *   response). Nothing runs yet: its arguments are still arriving.
 * - `tool_call_delta`: a piece of that call's JSON argument text, as the model sent it: unparsed and
 *   possibly incomplete. Arguments are parsed, validated and run only once the step's whole response
 *   is in, under every policy `complete()` applies.
 * - `tool_call_finished`: the call's outcome (executed or refused). Every `tool_call_started` gets one:
 *   a call whose response never completed (the run was aborted, or the stream failed) finishes
 *   `cancelled` with `attempts: 0`. A call suspended for a stored approval gets none (the run ends
 *   `awaiting_approval`). The three tool-call events carry `turn`, the step that asked for the call:
 *   a call is identified by (`runId`, `turn`, `callId`), since a model may reuse `call_0` every turn.
 * - `step_finished`: the step's response and all its tool calls are done; `response` is absent when
 *   the step ended before the model answered (an abort).
 * - `run_finished`: the last event of a run that returned; `result` is what `complete()` would have
 *   returned. A run that fails (a model or store error) ends the iteration with that error instead.
 */
export type LlmAgentStreamEvent =
  | { readonly type: 'run_started'; readonly runId: string }
  | { readonly type: 'text_delta'; readonly runId: string; readonly step: number; readonly text: string }
  | { readonly type: 'tool_call_started'; readonly runId: string; readonly step: number; readonly turn: number; readonly index: number; readonly callId: string; readonly toolName: string }
  | { readonly type: 'tool_call_delta'; readonly runId: string; readonly step: number; readonly turn: number; readonly index: number; readonly callId: string; readonly argumentsDelta: string }
  | {
      readonly type: 'tool_call_finished';
      readonly runId: string;
      readonly step: number;
      /** The turn of the call; with `runId` and `callId` it identifies the call (a model may reuse an id every turn). */
      readonly turn: number;
      readonly callId: string;
      readonly toolName: string;
      readonly outcome: ToolOutcome;
      readonly attempts: number;
      readonly durationMs: number;
    }
  | { readonly type: 'step_finished'; readonly runId: string; readonly step: number; readonly response?: ModelResponse }
  | { readonly type: 'run_finished'; readonly runId: string; readonly result: LlmAgentRunResult };

/** The `type` literals of {@link LlmAgentStreamEvent}. */
export type LlmAgentStreamEventType = LlmAgentStreamEvent['type'];

/**
 * What `runner.stream()` returns: an async iterable of {@link LlmAgentStreamEvent}s. The run starts
 * when iteration (or `result`) starts. Breaking out of the loop (or calling `return()`) aborts the run
 * and waits until it has settled, so no tool call is left running unobserved. One consumer: the
 * events are delivered once.
 */
export interface LlmAgentRunStream extends AsyncIterableIterator<LlmAgentStreamEvent> {
  /** The run's id (known before the run starts). */
  readonly runId: string;
  /**
   * The run's result, as `complete()` would return it; starts the run when iteration has not. Events
   * not consumed stay queued, so a caller that wants only the result should call `complete()`.
   */
  readonly result: Promise<LlmAgentRunResult>;
  /** Aborts the run (as its `signal` would); the iteration then ends with `run_finished`, stop reason `aborted`. */
  abort(reason?: unknown): void;
}
