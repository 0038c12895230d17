import { AgentRunRecord } from '../durable/agent-run-record';
import { ChatMessage } from '../model/model-types';
import { DEFAULT_TOOL_OUTPUT_PROJECTION } from '../projection/default-tool-output-projection';
import { tryProjectToolOutputForModel } from '../projection/project-tool-output-for-model';
import { renderToolMessage } from '../outcome/render-tool-message';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';

/**
 * The conversation of a cancelled run, its last turn closed: a cancelled run is never resumed, so each call of
 * its last assistant message left without a Tool message (a call awaiting approval when the run was cancelled,
 * or a call of the same turn admitted meanwhile) gets one here, so the conversation can go on (`continueFrom`)
 * with a transcript every provider accepts. The Tool message carries the call's admitted outcome; a call
 * started without one is `outcome_unknown` (it may have run); a call never started is `cancelled` (nothing ran).
 * Any other run's conversation is returned as it is.
 */
export function withCancelledTurnClosed(record: AgentRunRecord, messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[last];
  if (record.status !== 'cancelled' || assistant?.role !== 'assistant') return [...messages];
  const turn = messages.slice(0, last + 1).filter((message) => message.role === 'assistant').length;
  const answered = new Set(
    messages.slice(last + 1).flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])),
  );
  const closing = assistant.toolCalls
    .filter((call) => !answered.has(call.id))
    .map((call): ChatMessage => {
      const stored = record.toolCalls.find((candidate) => candidate.callId === call.id && candidate.turn === turn);
      const outcome: ToolOutcome =
        stored === undefined
          ? standardFailure('cancelled', `the run was cancelled before the call to '${call.name}' ran`)
          : (stored.outcome ??
            standardFailure('outcome_unknown', `the run was cancelled while the call to '${call.name}' ran`));
      const projected = tryProjectToolOutputForModel(outcome, { policy: DEFAULT_TOOL_OUTPUT_PROJECTION });
      return {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: projected.ok ? projected.content : renderToolMessage(standardFailure('cancelled', 'cancelled')),
        isError: !outcome.ok,
      };
    });
  return [...messages, ...closing];
}
