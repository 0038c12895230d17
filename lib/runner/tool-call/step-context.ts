import { ModelToolCall } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import type { ModelProjection } from './call-completion';
import type { AdmittedCall, DispatchedCall } from './call-dispatch';
import { MaybePromise } from '../maybe-promise';
import { ToolCallRequest } from '../run-options';
import { LlmAgentEvent, LlmAgentHookName } from '../runner-events';
import { RunInProgress } from '../run-state';

/**
 * What a step function of the per-call path gets from its runner: the run, and the runner's own
 * steps for that run (so an overridden `emit`, `projectForModel` or `dispatchAttempt` is the one called).
 */
export interface StepContext {
  readonly run: RunInProgress;
  /** Delivers an event through the runner's `emit`. */
  readonly emit: (event: LlmAgentEvent) => void;
  /** Reports a host hook that threw or rejected (`hook_failed`). */
  readonly hookFailed: (
    call: { readonly callId: string; readonly turn: number; readonly toolName: string },
    hook: LlmAgentHookName,
    error: unknown,
  ) => void;
  /** The runner's `projectForModel` for this run. */
  readonly project: (call: ModelToolCall, outcome: ToolOutcome) => ModelProjection;
  /** The runner's `validateOutput` for this run. */
  readonly validateOutput: (request: ToolCallRequest, outcome: ToolOutcome) => ToolOutcome;
  /** The runner's `dispatchAttempt` for this run. */
  readonly dispatchAttempt: (call: AdmittedCall, attempt: number) => MaybePromise<ToolOutcome>;
  /** The runner's `retryAttempts` for this run. */
  readonly retryAttempts: (call: AdmittedCall, first: MaybePromise<ToolOutcome>) => Promise<DispatchedCall>;
  /** The runner's `compensate` for this run. */
  readonly compensate: (call: AdmittedCall, attempt: number, failure: ToolOutcome) => Promise<ToolOutcome>;
}
