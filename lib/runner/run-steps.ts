import { LlmAgentStopReason } from './run-result';
import { RunState } from './run-state';

/** Default most model requests in one run. */
export const DEFAULT_MAX_STEPS = 16;

/** Why the loop stops before its next step (the run aborted, or it made `maxSteps` requests), if it does. @internal */
export function limitReached(run: RunState): LlmAgentStopReason | undefined {
  if (run.options.signal?.aborted) return 'aborted';
  if (run.steps >= (run.options.maxSteps ?? DEFAULT_MAX_STEPS)) return 'max_steps';
  return undefined;
}
