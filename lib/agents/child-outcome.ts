import { AgentRunRecord } from '../durable/agent-run-record';
import { JsonValue } from '../outcome/json-value';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import type { LlmAgentRunResult } from '../runner/run-result';
import type { CompiledStructuredOutput } from '../runner/structured-output/structured-output';
import { WaitingChild } from './parent-run-link';

/** The runs of a child's subtree that wait for an approval: the child itself, or the children its calls wait on. */
export function waitingChildOf(childRunId: string, result: LlmAgentRunResult): WaitingChild {
  const below = result.toolCalls
    .filter((call) => call.awaitingApproval === true)
    .flatMap((call) => {
      const details = call.outcome.ok ? undefined : call.outcome.error.details;
      const ids = (details as { waitingRunIds?: unknown } | undefined)?.waitingRunIds;
      return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : [childRunId];
    });
  return { childRunId, waitingRunIds: [...new Set([childRunId, ...below])] };
}

/**
 * The parent call's outcome of a child run that ended: its final answer (the structured `output` as `data`, else its
 * text), or a failure saying why it has none. `metadata.childRunId` names the child (never sent to the model).
 */
export function childOutcome(childRunId: string | undefined, result: LlmAgentRunResult): ToolOutcome {
  const metadata = childRunId === undefined ? undefined : { childRunId };
  const withMetadata = (outcome: ToolOutcome): ToolOutcome =>
    metadata === undefined ? outcome : { ...outcome, metadata };
  if (result.stopReason === 'end_turn' || result.stopReason === 'stop_sequence') {
    if (result.output !== undefined) return withMetadata({ ok: true, data: toJson(result.output) });
    return withMetadata({ ok: true, text: result.text });
  }
  if (result.stopReason === 'aborted')
    return withMetadata(standardFailure('cancelled', 'the child run was cancelled before it answered'));
  return withMetadata(
    toolFailure({
      code: `agent_${result.stopReason}`,
      category: 'internal',
      retryable: false,
      message: `the child run ended with '${result.stopReason}' before a final answer`,
    }),
  );
}

/**
 * The outcome of a child run the store already has as `completed` (the parent stopped before it admitted the call):
 * its last answer, read from the record; nothing runs again.
 */
export async function completedChildOutcome(
  record: AgentRunRecord,
  output: CompiledStructuredOutput | undefined,
): Promise<ToolOutcome> {
  const metadata = { childRunId: record.runId };
  const last = record.messages.findLast((message) => message.role === 'assistant');
  if (last === undefined || last.role !== 'assistant')
    return { ...standardFailure('tool_error', 'the completed child run has no answer'), metadata };
  if (output === undefined) return { ok: true, text: last.content, metadata };
  const answer = last.toolCalls.find((call) => call.name === output.tool.name)?.arguments ?? last.content;
  const parsed = await output.parse(answer);
  if (!parsed.ok) return { ...standardFailure('tool_error', 'the completed child run has no valid answer'), metadata };
  return { ok: true, data: toJson(parsed.value), metadata };
}

/** The JSON form of an answer (a class instance becomes its fields). */
function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
