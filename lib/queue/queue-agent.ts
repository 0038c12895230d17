import type { LlmAgentRunOptions } from '../runner/run-options';
import type { LlmAgentRunResult } from '../runner/run-result';

/** A runner a worker can continue stored runs with (an `LlmAgentRunner`). */
export interface ResumingRunner {
  /** Continues the stored run `runId` (see `LlmAgentRunner.resume`). */
  resume(runId: string, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult>;
}

/**
 * An agent a worker executes runs of: its runner, and the run options it passes to every `resume()`
 * (the worker sets `store`, `signal`, `workerId`, `leaseTtlMs`, and `maxSteps` when the run was enqueued with one).
 * Give no `approvalHandler`: a call that needs approval then suspends the run until `decideApproval`.
 */
export interface QueueAgent {
  readonly runner: ResumingRunner;
  readonly runOptions?: LlmAgentRunOptions;
}
