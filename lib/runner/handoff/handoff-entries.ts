import type { AgentRunRecord } from '../../durable/agent-run-record';
import { HandoffEntry, transferToolName } from './handoff';
import { handoffOfOutcome } from './transfer-tools';

/**
 * The handoffs of a stored run, in order: each transfer call whose outcome the store admitted with its handoff
 * (`metadata.handoff`, `{ from, to }`) and whose Tool message the conversation holds. The last one's `to` holds the
 * conversation (a resume continues with it); a run without handoffs answers `[]`. The entries come from the record's
 * hash-chained calls and messages, so `loadRun` refuses a record whose handoffs were edited (`record_tampered`).
 */
export function handoffsOf(record: Pick<AgentRunRecord, 'messages' | 'toolCalls'>): readonly HandoffEntry[] {
  const entries: HandoffEntry[] = [];
  let turn = 0;
  for (const message of record.messages) {
    if (message.role === 'assistant') turn++;
    if (message.role !== 'tool' || message.isError) continue;
    const call = record.toolCalls.find(
      (candidate) =>
        candidate.turn === turn && candidate.callId === message.toolCallId && candidate.status === 'admitted',
    );
    const recorded = handoffOfOutcome(call?.outcome);
    if (recorded === undefined || call?.toolName !== transferToolName(recorded.to)) continue;
    entries.push({ turn, callId: message.toolCallId, ...recorded });
  }
  return entries;
}
