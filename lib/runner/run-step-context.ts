import { messageOf } from '../errors/message-of';
import { ModelToolCall } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import type { ModelProjection } from './call-completion';
import type { AdmittedCall, DispatchedCall } from './call-dispatch';
import { MaybePromise } from './maybe-promise';
import { ToolCallRequest } from './run-options';
import { ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { AttemptContinuation } from './run-tool-attempt';
import { LlmAgentEvent, LlmAgentHookName } from './runner-events';
import { StepContext } from './step-context';

// The per-run and per-call objects of `ToolCallPipeline`: the step context its step functions get, and
// the started call whose only attempt continues into the rest of the call. @internal

/** A pipeline's steps that step functions call back, each taking the run. */
export interface PipelineSteps {
  readonly emit: (run: RunState, event: LlmAgentEvent) => void;
  readonly project: (run: RunState, call: ModelToolCall, outcome: ToolOutcome) => ModelProjection;
  readonly validateOutput: (run: RunState, request: ToolCallRequest, outcome: ToolOutcome) => ToolOutcome;
  readonly dispatchAttempt: (run: RunState, call: AdmittedCall, attempt: number) => MaybePromise<ToolOutcome>;
  readonly retryAttempts: (run: RunState, call: AdmittedCall, first: MaybePromise<ToolOutcome>) => Promise<DispatchedCall>;
  readonly compensate: (run: RunState, call: AdmittedCall, attempt: number, failure: ToolOutcome) => Promise<ToolOutcome>;
  readonly finishDispatched: (run: RunState, started: StartedCall, outcome: ToolOutcome, attempts: number) => MaybePromise<ToolCallResult>;
}

/** The {@link StepContext} of one run: its methods live on the prototype and call the pipeline's steps with the run. */
export class RunStepContext implements StepContext {
  constructor(
    readonly run: RunState,
    private readonly steps: PipelineSteps,
  ) {}

  emit(event: LlmAgentEvent): void {
    this.steps.emit(this.run, event);
  }

  hookFailed(call: { readonly callId: string; readonly turn: number; readonly toolName: string }, hook: LlmAgentHookName, error: unknown): void {
    this.steps.emit(this.run, { type: 'hook_failed', runId: this.run.runId, callId: call.callId, turn: call.turn, toolName: call.toolName, hook, message: messageOf(error) });
  }

  project(call: ModelToolCall, outcome: ToolOutcome): ModelProjection {
    return this.steps.project(this.run, call, outcome);
  }

  validateOutput(request: ToolCallRequest, outcome: ToolOutcome): ToolOutcome {
    return this.steps.validateOutput(this.run, request, outcome);
  }

  dispatchAttempt(call: AdmittedCall, attempt: number): MaybePromise<ToolOutcome> {
    return this.steps.dispatchAttempt(this.run, call, attempt);
  }

  retryAttempts(call: AdmittedCall, first: MaybePromise<ToolOutcome>): Promise<DispatchedCall> {
    return this.steps.retryAttempts(this.run, call, first);
  }

  compensate(call: AdmittedCall, attempt: number, failure: ToolOutcome): Promise<ToolOutcome> {
    return this.steps.compensate(this.run, call, attempt, failure);
  }

  /** The pipeline's end of a dispatched call: its outcome finished, then completed into the result. */
  finishDispatched(started: StartedCall, outcome: ToolOutcome, attempts: number): MaybePromise<ToolCallResult> {
    return this.steps.finishDispatched(this.run, started, outcome, attempts);
  }
}

/**
 * A call whose request passed validation, on its way through the remaining gates; the continuation of
 * its only attempt (the attempt's outcome goes on to the rest of the call in the attempt's own reaction).
 */
export class StartedCall implements AttemptContinuation<ToolCallResult> {
  constructor(
    readonly call: ModelToolCall,
    readonly key: string,
    readonly startedAt: number,
    readonly request: ToolCallRequest,
    private readonly context: RunStepContext,
  ) {}

  attemptSettled(outcome: ToolOutcome): MaybePromise<ToolCallResult> {
    return this.context.finishDispatched(this, outcome, 1);
  }
}
