import { ModelResponse } from '../model/model-types';
import { ModelStreamEvent } from '../model/model-stream';
import { standardFailure } from '../outcome/tool-outcome';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentRunResult } from './run-result';
import { LlmAgentEvent } from './runner-events';
import { LlmAgentRunStream, LlmAgentStreamEvent } from './stream-events';

/** A call the model began in the current step whose response has not arrived yet. */
interface OpenCall {
  readonly callId: string;
  readonly toolName: string;
  readonly step: number;
  readonly turn: number;
}

/**
 * The implementation of {@link LlmAgentRunStream}: a queue the run writes into (runner events through
 * the run's `onEvent`, model deltas through {@link RunStreamChannel.modelEvent}) and one consumer
 * reads. The run never waits for the consumer. @internal
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
  readonly runId: string;

  constructor(
    runId: string,
    private readonly onEvent: LlmAgentRunOptions['onEvent'],
    userSignal: AbortSignal | undefined,
  ) {
    this.runId = runId;
    this.signal = userSignal === undefined ? this.controller.signal : AbortSignal.any([userSignal, this.controller.signal]);
  }

  /** Aborts when the user's signal does, or when the consumer stops iterating. */
  readonly signal: AbortSignal;

  /** The run's options: the user's, with this stream's signal and event listener. */
  runOptions(options: LlmAgentRunOptions): LlmAgentRunOptions {
    return { ...options, runId: this.runId, signal: this.signal, onEvent: (event) => this.runnerEvent(event) };
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

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    if (this.running === undefined) this.start().catch(() => undefined);
    for (;;) {
      const event = this.queue.shift();
      if (event !== undefined) return { done: false, value: event };
      if (this.settled || this.closed) {
        const failure = this.failure;
        this.failure = undefined;
        this.closed = true;
        if (failure !== undefined) throw failure.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** The consumer stopped: abort the run, wait until it settled, drop what is left. */
  async return(): Promise<IteratorResult<LlmAgentStreamEvent, undefined>> {
    this.closed = true;
    if (this.running !== undefined && !this.settled) {
      this.controller.abort();
      await this.running.catch(() => undefined);
    }
    this.queue.length = 0;
    this.failure = undefined;
    return { done: true, value: undefined };
  }

  /** A model delta of the current step (`step` as the runner counts; `turn`, the turn its calls will have). */
  modelEvent(step: number, turn: number, event: ModelStreamEvent): void {
    const runId = this.runId;
    switch (event.type) {
      case 'text_delta':
        if (event.text.length > 0) this.push({ type: 'text_delta', runId, step, text: event.text });
        return;
      case 'tool_call_started':
        this.openCalls.set(event.index, { callId: event.id, toolName: event.name, step, turn });
        this.push({ type: 'tool_call_started', runId, step, turn, index: event.index, callId: event.id, toolName: event.name });
        return;
      case 'tool_call_delta': {
        const call = this.openCalls.get(event.index);
        if (call !== undefined && event.argumentsDelta.length > 0)
          this.push({ type: 'tool_call_delta', runId, step, turn: call.turn, index: event.index, callId: call.callId, argumentsDelta: event.argumentsDelta });
        return;
      }
      case 'response':
        // From here the pipeline owns the calls: each gets its `tool_call_finished` from there.
        this.openCalls.clear();
        return;
    }
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
      case 'tool_call_finished': {
        const { callId, turn, toolName, outcome, attempts, durationMs } = event;
        this.push({ type: 'tool_call_finished', runId, step: this.step, turn, callId, toolName, outcome, attempts, durationMs });
        break;
      }
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
      (result) => {
        this.finishRun();
        this.push({ type: 'run_finished', runId: this.runId, result });
        this.settle();
        return result;
      },
      (error: unknown) => {
        this.finishRun();
        this.failure = { error };
        this.settle();
        throw error;
      },
    );
    return this.running;
  }

  private finishRun(): void {
    for (const call of this.openCalls.values()) {
      const outcome = standardFailure('cancelled', `the model's answer with '${call.toolName}' never completed, so the call was not run`);
      this.push({ type: 'tool_call_finished', runId: this.runId, step: call.step, turn: call.turn, callId: call.callId, toolName: call.toolName, outcome, attempts: 0, durationMs: 0 });
    }
    this.openCalls.clear();
    this.finishStep();
  }

  private finishStep(): void {
    if (!this.stepOpen) return;
    this.stepOpen = false;
    const response = this.stepResponse;
    this.push({ type: 'step_finished', runId: this.runId, step: this.step, ...(response === undefined ? {} : { response }) });
  }

  private settle(): void {
    this.settled = true;
    this.signalConsumer();
  }

  private push(event: LlmAgentStreamEvent): void {
    if (this.closed) return;
    this.queue.push(event);
    this.signalConsumer();
  }

  private signalConsumer(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
