import { ModelResponse } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { LlmAgentRunResult } from '../run-result';
import type { ChildAgentEvent } from '../runner-events';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- referenced from TSDoc
import type { StreamBufferPolicy } from './stream-buffer-policy';

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
 * - `tool_call_finished`: the call's outcome (executed or refused) and `content`, the projected Tool message the
 *   model reads for it (so a client can show the output when the call finishes, not with the result). Every
 *   `tool_call_started` gets one:
 *   a call whose response never completed (the run was aborted, or the stream failed) finishes
 *   `cancelled` with `attempts: 0`. A call suspended for a stored approval gets none (the run ends
 *   `awaiting_approval`). The three tool-call events carry `turn`, the step that asked for the call:
 *   a call is identified by (`runId`, `turn`, `callId`), since a model may reuse `call_0` every turn.
 * - `step_finished`: the step's response and all its tool calls are done; `response` is absent when
 *   the step ended before the model answered (an abort), and for the resumed turn of `resumeStream()`
 *   (the model answered it before the resume).
 *
 * `resumeStream()` reports the calls of the resumed turn that run before its first model step (those
 * without a Tool message in the record) as `tool_call_started`, one `tool_call_delta` with their whole
 * argument text and `tool_call_finished`, in a step numbered as that turn.
 * - `run_finished`: the last event of a run that returned; `result` is what `complete()` would have
 *   returned. A run that fails (a model or store error) ends the iteration with that error instead.
 * - `agent_event`: an event of a child run an agent tool of this run started (or of a run below it), as the runner
 *   reports it to `onEvent` ({@link ChildAgentEvent}): the child's event in `event`, its path in `agent` (tool
 *   names) and `calls`. They come in order between the agent tool call's `tool_call_started` and its
 *   `tool_call_finished`. Every other event is the run's own: a consumer that follows only this run skips
 *   `agent_event`.
 */
export type LlmAgentStreamEvent =
  | { readonly type: 'run_started'; readonly runId: string }
  | { readonly type: 'text_delta'; readonly runId: string; readonly step: number; readonly text: string }
  | {
      readonly type: 'tool_call_started';
      readonly runId: string;
      readonly step: number;
      readonly turn: number;
      readonly index: number;
      readonly callId: string;
      readonly toolName: string;
    }
  | {
      readonly type: 'tool_call_delta';
      readonly runId: string;
      readonly step: number;
      readonly turn: number;
      readonly index: number;
      readonly callId: string;
      readonly argumentsDelta: string;
    }
  | {
      readonly type: 'tool_call_finished';
      readonly runId: string;
      readonly step: number;
      /**
       * The turn of the call; with `runId` and `callId` it identifies the call (a model may reuse an id every turn).
       */
      readonly turn: number;
      readonly callId: string;
      readonly toolName: string;
      readonly outcome: ToolOutcome;
      /** The projected Tool message the model reads for `outcome` (see the runner's `tool_call_finished`). */
      readonly content: string;
      readonly attempts: number;
      readonly durationMs: number;
    }
  | { readonly type: 'step_finished'; readonly runId: string; readonly step: number; readonly response?: ModelResponse }
  | { readonly type: 'run_finished'; readonly runId: string; readonly result: LlmAgentRunResult }
  | ChildAgentEvent;

/** The `type` literals of {@link LlmAgentStreamEvent}. */
export type LlmAgentStreamEventType = LlmAgentStreamEvent['type'];

/**
 * What `runner.stream()` and `runner.resumeStream()` return: an async iterable of
 * {@link LlmAgentStreamEvent}s. The run starts when iteration (or `result`) starts. Breaking out of the
 * loop (or calling `return()`) aborts the run and waits until it has settled, so no tool call is left
 * running unobserved. One consumer: the events are delivered once. The buffer is bounded
 * ({@link StreamBufferPolicy}): a consumer that reads slowly makes the model stream wait; a consumer
 * that stops reading without leaving the loop keeps the run waiting until it reads, leaves or aborts.
 */
export interface LlmAgentRunStream extends AsyncIterableIterator<LlmAgentStreamEvent> {
  /** The run's id (known before the run starts). */
  readonly runId: string;
  /**
   * The run's result, as `complete()` would return it; starts the run when iteration has not. Events
   * not consumed stay queued (without a bound while no iteration started), so a caller that wants only
   * the result should call `complete()`. Awaited by a consumer that iterated and stopped reading
   * without leaving the loop, it waits as the run does: leave the loop first.
   */
  readonly result: Promise<LlmAgentRunResult>;
  /** Aborts the run (as its `signal` would); the iteration then ends with `run_finished`, stop reason `aborted`. */
  abort(reason?: unknown): void;
  /** How many events are buffered now, waiting for the consumer (see {@link StreamBufferPolicy}). */
  readonly buffered: number;
  /**
   * The most events the buffer has held at once so far: at most `streamBufferSize` plus one step's tool calls (and
   * the `agent_event`s of that step's child runs) for an iterating consumer.
   */
  readonly maxBuffered: number;
}
