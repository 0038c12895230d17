import { mergeOwn } from '../outcome/merge-own';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { AgentRunStatus } from '../durable/agent-run-record';
import { ModelResponse } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { checkToolImagePolicy } from '../projection/tool-image-policy';
import { resolveJsonPointer } from '../validation/validation-issue';
import { LlmAgentStopReason } from './run-result';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentError } from './runner-error';
import { messageOf } from '../errors/message-of';

/** Small pure rules the runner applies; kept apart so the runner reads as its steps. */
/** A worker id unique enough for leases: host name, process id, random suffix. */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The stored run status for a stop reason: `stopped` for the step limit, never `completed`. */
export function storedStatusOf(stopReason: LlmAgentStopReason | undefined): AgentRunStatus {
  if (stopReason === 'awaiting_approval') return 'awaiting_approval';
  if (stopReason === 'aborted') return 'cancelled';
  // A tripwire ends the run for good: a resume must not run anything after it.
  if (stopReason === 'guardrail_tripped') return 'cancelled';
  // Reaching the step limit is not a final answer: the run can be resumed with a larger maxSteps.
  if (stopReason === 'max_steps') return 'stopped';
  // A budget or a stop condition ended it early: it can be resumed (with a larger budget).
  if (stopReason === 'budget_exhausted' || stopReason === 'stop_condition') return 'stopped';
  return 'completed';
}

/** Whether a contract's approval mode asks for approval. */
export function needsApproval(descriptor: ToolDescriptor): boolean {
  return (
    descriptor.approval === 'always' ||
    (descriptor.approval === 'when_destructive' && descriptor.sideEffect === 'destructive')
  );
}

/** The run's stop reason for a model answer without tool calls. */
export function stopReasonOf(response: ModelResponse): LlmAgentStopReason {
  switch (response.stopReason) {
    case 'end_turn':
    case 'tool_use':
      return 'end_turn';
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return response.stopReason;
    default:
      return 'other';
  }
}

/** Exposes a scalar at the contract's outcome pointer as `outcome.resourceVersion`. */
export function withResourceVersion(outcome: ToolOutcome, descriptor: ToolDescriptor): ToolOutcome {
  if (!outcome.ok || outcome.resourceVersion !== undefined || outcome.data === undefined) return outcome;
  const version = resolveJsonPointer(outcome.data, descriptor.resourceVersion.outcomePointer);
  if (typeof version === 'string' || typeof version === 'number')
    return mergeOwn(outcome, { resourceVersion: version });
  return outcome;
}

/**
 * Throws `invalid_run_options` for limits a run cannot work with: `maxSteps` must be a positive
 * integer (NaN would never stop the loop), `leaseTtlMs` a positive finite number,
 * `abandonedAttemptGraceMs` and `abortedWriteGraceMs` finite numbers >= 0. A malformed `toolImages`
 * policy throws `ToolOutputProjectionPolicyError` (`invalid_policy`), as a text projection policy does.
 */
export function checkRunLimits(options: LlmAgentRunOptions): void {
  const { maxSteps, leaseTtlMs, abandonedAttemptGraceMs, abortedWriteGraceMs } = options;
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps >= 1))
    throw new LlmAgentError('invalid_run_options', `maxSteps must be a positive integer, got ${messageOf(maxSteps)}`);
  if (leaseTtlMs !== undefined && !(Number.isFinite(leaseTtlMs) && leaseTtlMs > 0))
    throw new LlmAgentError(
      'invalid_run_options',
      `leaseTtlMs must be a positive number of milliseconds, got ${messageOf(leaseTtlMs)}`,
    );
  if (
    abandonedAttemptGraceMs !== undefined &&
    !(Number.isFinite(abandonedAttemptGraceMs) && abandonedAttemptGraceMs >= 0)
  )
    throw new LlmAgentError(
      'invalid_run_options',
      `abandonedAttemptGraceMs must be a finite number of milliseconds >= 0, got ${messageOf(abandonedAttemptGraceMs)}`,
    );
  if (abortedWriteGraceMs !== undefined && !(Number.isFinite(abortedWriteGraceMs) && abortedWriteGraceMs >= 0))
    throw new LlmAgentError(
      'invalid_run_options',
      `abortedWriteGraceMs must be a finite number of milliseconds >= 0, got ${messageOf(abortedWriteGraceMs)}`,
    );
  if (options.toolImages !== undefined) checkToolImagePolicy(options.toolImages);
}
