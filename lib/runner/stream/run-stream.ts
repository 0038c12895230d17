import { mergeOwn } from '../../outcome/merge-own';
import { ModelResponse, ModelToolCall } from '../../model/model-types';
import { ModelStreamEvent } from '../../model/model-stream';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { LlmAgentRunOptions } from '../run-options';
import { LlmAgentRunResult } from '../run-result';
import { LlmAgentEvent } from '../runner-events';
import { LlmAgentRunStream, LlmAgentStreamEvent } from './stream-events';
import { DEFAULT_STREAM_BUFFER_POLICY } from './stream-buffer-policy';
import { abortReasonOf, waitWhile } from './stream-producer-wait';
import {
  finishedCallEvent,
  notRunCallEvent,
  OpenCall,
  streamEventOfModelEvent,
  unfinishedCallEvent,
} from './stream-event-mapping';

/**
 * The implementation of {@link LlmAgentRunStream}: a queue the run writes into (runner events through
 * the run's `onEvent`, model deltas through {@link RunStreamChannel.modelEvent}) and one consumer
 * reads. Bounded (see {@link StreamBufferPolicy}): with `bufferSize` events queued for an iterating
 * consumer, model events and the run's closing events wait until the consumer takes one; runner events
 * (tool outcomes, a step's end) never wait. @internal
 */
export class RunStreamChannel implements LlmAgentRunStream {
  private readonly queue: LlmAgentStreamEvent[] = [];
  private readonly controller = new AbortController();
  private wake: (() => void) | undefined;
  private body: (() => Promise<LlmAgentRunResult>) | undefined;
  private running: Promise<LlmAgentRunResult> | undefined;
  private settled = false;
  private failure: { readonly error: unknown } | undefined;
  private closed = false;
  /** Calls the model began whose step has no response yet, by their index in the step. */
  private readonly openCalls = new Map<number, OpenCall>();
  private step = 0;
  private stepResponse: ModelResponse | undefined;
  private stepOpen = false;
  /** A consumer has called `next()`: from then on the run waits for it when the buffer is full. */
  private reading = false;
  /** Producers waiting for room, released when the consumer takes an event, leaves, or the run aborts. */
  private readonly roomWaiters: (() => void)[] = [];
  private peak = 0;
  readonly runId: string;

  constructor(
    runId: string,
    private readonly onEvent: LlmAgentRunOptions['onEvent'],
    userSignal: AbortSignal | undefined,
    private readonly bufferSize: number = DEFAULT_STREAM_BUFFER_POLICY.streamBufferSize,
  ) {
    this.runId = runId;
    this.signal =
      userSignal === undefined ? this.controller.signal : AbortSignal.any([userSignal, this.controller.signal]);
  }

  /** Aborts when the user's signal does, or when the consumer stops iterating. */
  readonly signal: AbortSignal;

  /** The run's options: the user's, with this stream's signal and event listener. */
  runOptions(options: LlmAgentRunOptions): LlmAgentRunOptions {
    return mergeOwn(options, { runId: this.runId, signal: this.signal, onEvent: (event) => this.runnerEvent(event) });
  }

  /** Sets the run's body; it starts on the first `next()` or `result`. */
  bind(body: () => Promise<LlmAgentRunResult>): void {
    this.body = body;
  }

  get result(): Promise<LlmAgentRunResult> {
    return this.start();
  }

  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  get buffered(): number {
    return this.queue.length;
  }

  get maxBuffered(): number {
    return this.peak;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    this.reading = true;
    if (this.running === undefined) this.start().catch(() => undefined);
    for (;;) {
      const event = this.queue.shift();
      if (event !== undefined) {
        if (this.roomWaiters.length > 0 && this.queue.length < this.bufferSize) this.releaseProducers();
        return { done: false, value: event };
      }
      if (this.settled || this.closed) {
        const failure = this.failure;
        this.failure = undefined;
        this.close();
        if (failure !== undefined) throw failure.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** The consumer stopped: abort the run, wait until it settled, drop what is left. */
  async return(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    this.close();
    if (this.running !== undefined && !this.settled) {
      this.controller.abort();
      await this.running.catch(() => undefined);
    }
    this.queue.length = 0;
    this.failure = undefined;
    return { done: true, value: undefined };
  }

  /**
   * A model event of the current step (`step` as the runner counts; `turn`, the turn its calls will have),
   * taken once the buffer has room: a promise while the run waits for the consumer, else nothing. After
   * the run aborted it throws the abort's reason, which ends the model's stream.
   */
  modelEvent(step: number, turn: number, event: ModelStreamEvent): Promise<void> | undefined {
    const room = this.waitForRoom();
    if (room === undefined) {
      this.takeModelEvent(step, turn, event);
      return undefined;
    }
    return room.then(() => this.takeModelEvent(step, turn, event));
  }

  /**
   * Finishes the streamed calls of a model response the run dropped (parallel input guardrails stopped it after the
   * response came): each gets its `tool_call_finished` with `outcome`; none ran.
   */
  async droppedCalls(step: number, turn: number, calls: readonly ModelToolCall[], outcome: ToolOutcome): Promise<void> {
    const runId = this.runId;
    for (const call of calls) {
      await this.waitForRoom();
      this.push(notRunCallEvent(runId, { step, turn, callId: call.id, toolName: call.name }, outcome));
    }
  }

  /**
   * The calls of a resumed turn that run before any model step (`resumeStream()`): the turn opens as step
   * `step`, and each call is reported started, with its whole argument text as one delta, as a model that
   * can only `step()` would have it. Their outcomes come from the pipeline; the step ends without a response.
   */
  async resumedCalls(
    step: number,
    turn: number,
    calls: readonly ModelToolCall[],
    pending: readonly ModelToolCall[],
  ): Promise<void> {
    this.finishStep();
    this.step = step;
    this.stepOpen = true;
    this.stepResponse = undefined;
    const runId = this.runId;
    for (const call of pending) {
      const index = calls.indexOf(call);
      await this.waitForRoom();
      this.push({ type: 'tool_call_started', runId, step, turn, index, callId: call.id, toolName: call.name });
      const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      if (text.length > 0)
        this.push({ type: 'tool_call_delta', runId, step, turn, index, callId: call.id, argumentsDelta: text });
    }
  }

  private takeModelEvent(step: number, turn: number, event: ModelStreamEvent): void {
    if (this.signal.aborted) throw abortReasonOf(this.signal);
    const streamed = streamEventOfModelEvent(this.runId, step, turn, event, this.openCalls);
    if (streamed !== undefined) this.push(streamed);
  }

  /** Every runner event: passed to the user's `onEvent`, and mapped to stream events. */
  private runnerEvent(event: LlmAgentEvent): unknown {
    const runId = this.runId;
    switch (event.type) {
      case 'run_started':
        this.push({ type: 'run_started', runId });
        break;
      case 'model_requested':
        this.finishStep();
        this.step = event.step;
        this.stepOpen = true;
        this.stepResponse = undefined;
        break;
      case 'model_responded':
        this.stepResponse = event.response;
        break;
      case 'tool_call_finished':
        this.push(finishedCallEvent(runId, this.step, event));
        break;
      case 'agent_event':
        // A child run's event: added without waiting, as the runner events of a tool call (a child is one).
        this.push(event);
        break;
      default:
        break;
    }
    return this.onEvent?.(event);
  }

  /** Starts the run once; when it settles, closes the open calls and the step, then ends the queue. */
  private start(): Promise<LlmAgentRunResult> {
    if (this.running !== undefined) return this.running;
    const body = this.body;
    if (body === undefined) throw new Error('RunStreamChannel.bind() was not called');
    this.running = body().then(
      async (result) => {
        await this.finishRun();
        await this.waitForRoom();
        this.push({ type: 'run_finished', runId: this.runId, result });
        this.settle();
        return result;
      },
      async (error: unknown) => {
        await this.finishRun();
        this.failure = { error };
        this.settle();
        throw error;
      },
    );
    return this.running;
  }

  /** The closing events of the run: each started call still open finishes `cancelled`, then the open step ends. */
  private async finishRun(): Promise<void> {
    for (const call of [...this.openCalls.values()]) {
      await this.waitForRoom();
      this.push(unfinishedCallEvent(this.runId, call));
    }
    this.openCalls.clear();
    await this.waitForRoom();
    this.finishStep();
  }

  /**
   * Resolves once the buffer has room, or nothing when it has room now (or nobody reads, the consumer left, the run
   * aborted).
   */
  private waitForRoom(): Promise<void> | undefined {
    if (!this.mustWait()) return undefined;
    return waitWhile(() => this.mustWait(), this.roomWaiters, this.signal);
  }

  private mustWait(): boolean {
    return this.queue.length >= this.bufferSize && this.reading && !this.closed && !this.signal.aborted;
  }

  private releaseProducers(): void {
    for (const release of this.roomWaiters.splice(0)) release();
  }

  private close(): void {
    this.closed = true;
    this.releaseProducers();
  }

  private finishStep(): void {
    if (!this.stepOpen) return;
    this.stepOpen = false;
    const response = this.stepResponse;
    this.push({
      type: 'step_finished',
      runId: this.runId,
      step: this.step,
      ...(response === undefined ? {} : { response }),
    });
  }

  private settle(): void {
    this.settled = true;
    this.signalConsumer();
  }

  private push(event: LlmAgentStreamEvent): void {
    if (this.closed) return;
    this.queue.push(event);
    if (this.queue.length > this.peak) this.peak = this.queue.length;
    this.signalConsumer();
  }

  private signalConsumer(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
