import { ModelToolCall } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolCallResult } from '../run-result';
import { RunInProgress } from '../run-state';
import { deriveIdempotencyKey } from '../tool-call/idempotency-key';
import { StepContext } from '../tool-call/step-context';

/**
 * The result of a judged final-answer call: reported and projected (through the runner's `projectForModel`) like
 * any call, nothing dispatched; it joins the run's calls. @internal
 */
export function finalAnswerResult(
  steps: StepContext,
  run: RunInProgress,
  call: ModelToolCall,
  outcome: ToolOutcome,
): ToolCallResult {
  const { runId, turn } = run;
  const { content, report } = steps.projectForModel(run, call, outcome);
  const finished = { runId, callId: call.id, turn, toolName: call.name, outcome, content, attempts: 0, durationMs: 0 };
  steps.emit(run, { type: 'tool_call_finished', ...finished });
  const result: ToolCallResult = {
    callId: call.id,
    turn,
    toolName: call.name,
    rawArguments: call.arguments,
    outcome,
    attempts: 0,
    idempotencyKey: deriveIdempotencyKey(runId, turn, call.id),
    content,
    projection: report,
    durationMs: 0,
  };
  run.toolCalls.push(result);
  return result;
}
