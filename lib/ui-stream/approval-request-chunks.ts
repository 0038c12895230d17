import type { ToolCallResult } from '../runner/run-result';
import { signUIApprovalId } from './ui-approval-id';
import type { WuweUIMessageChunk } from './ui-message-types';
import type { UIStreamApprovals } from './ui-stream-options';

/**
 * The `tool-approval-request` chunks of the calls a run suspended on: each approval id binds the run, the call's
 * turn and id, its tool and the arguments hash of the pending approval the store holds, signed with the host's
 * key. A call the store holds no pending approval for, or a stream without approval signing, is told as an
 * `error` chunk: nothing the client sends back could decide it.
 */
export async function approvalRequestChunks(
  runId: string,
  waiting: readonly ToolCallResult[],
  approvals: UIStreamApprovals | undefined,
): Promise<WuweUIMessageChunk[]> {
  if (waiting.length === 0) return [];
  if (approvals === undefined)
    return [
      {
        type: 'error',
        errorText: `the run waits for approval of ${waiting.map((call) => call.callId).join(', ')}, but the stream has no approval signing (the \`approvals\` option)`,
      },
    ];
  const record = await approvals.store.loadRun(runId);
  const chunks: WuweUIMessageChunk[] = [];
  for (const call of waiting) {
    const pending = record?.approvals.find(
      (approval) => approval.turn === call.turn && approval.callId === call.callId && approval.state === 'pending',
    );
    if (pending === undefined) {
      chunks.push({ type: 'error', errorText: `the store holds no pending approval for call ${call.callId}` });
      continue;
    }
    const { turn, callId, toolName, argumentsSha256 } = pending;
    const approvalId = signUIApprovalId({ runId, turn, callId, toolName, argumentsSha256 }, approvals);
    chunks.push({ type: 'tool-approval-request', approvalId, toolCallId: callId });
  }
  return chunks;
}
