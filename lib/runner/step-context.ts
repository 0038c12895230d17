import { LlmAgentEvent, LlmAgentHookName } from './runner-events';
import { RunState } from './run-state';

/**
 * What a step function of the per-call path gets from its pipeline: the run, and the pipeline's
 * own `emit` and hook-failure report (so an overridden `emit` sees every event of every step).
 */
export interface StepContext {
  readonly run: RunState;
  /** False when no event would be delivered (no `onEvent`, `emit` not overridden): events need not be built. */
  readonly listening: boolean;
  /** Delivers an event through the pipeline's `emit`. */
  readonly emit: (event: LlmAgentEvent) => void;
  /** Reports a host hook that threw or rejected (`hook_failed`). */
  readonly hookFailed: (call: { readonly callId: string; readonly turn: number; readonly toolName: string }, hook: LlmAgentHookName, error: unknown) => void;
}
