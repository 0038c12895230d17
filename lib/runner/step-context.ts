import { ModelToolCall } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import type { ModelProjection } from './call-completion';
import type { AdmittedCall, DispatchedCall } from './call-dispatch';
import { MaybePromise } from './maybe-promise';
import { ToolCallRequest } from './run-options';
import { LlmAgentEvent, LlmAgentHookName } from './runner-events';
import { RunState } from './run-state';

/**
 * What a step function of the per-call path gets from its pipeline: the run, and the pipeline's
 * own `emit` and hook-failure report (so an overridden `emit` sees every event of every step).
 */
export interface StepContext {
  readonly run: RunState;
  /** Delivers an event through the pipeline's `emit`. */
  readonly emit: (event: LlmAgentEvent) => void;
  /** Reports a host hook that threw or rejected (`hook_failed`). */
  readonly hookFailed: (call: { readonly callId: string; readonly turn: number; readonly toolName: string }, hook: LlmAgentHookName, error: unknown) => void;
  /** The pipeline's `projectForModel` for this run. */
  readonly project: (call: ModelToolCall, outcome: ToolOutcome) => ModelProjection;
  /** The pipeline's `validateOutput` for this run. */
  readonly validateOutput: (request: ToolCallRequest, outcome: ToolOutcome) => ToolOutcome;
  /** The pipeline's `dispatchAttempt` for this run. */
  readonly dispatchAttempt: (call: AdmittedCall, attempt: number) => MaybePromise<ToolOutcome>;
  /** The pipeline's `retryAttempts` for this run. */
  readonly retryAttempts: (call: AdmittedCall, first: MaybePromise<ToolOutcome>) => Promise<DispatchedCall>;
  /** The pipeline's `compensate` for this run. */
  readonly compensate: (call: AdmittedCall, attempt: number, failure: ToolOutcome) => Promise<ToolOutcome>;
}
