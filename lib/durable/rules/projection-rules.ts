import { ToolCallRecord, ToolOutputProjectionInput } from '../agent-run-record';
import { canonicalJson } from '../canonical-arguments';
import { RunStoreError } from '../run-store-error';
import { ChatMessage } from '../../model/model-types';
import { splitOrigin } from '../message-origins';
import { JsonValue } from '../../outcome/json-value';
import { toolContentSha256 } from '../chain/chain-entities';
import { ProjectionRow } from '../stored-rows';
import { checkId, checkTurn, isSha256Hex } from './value-rules';

/** The rules of projection audits that every {@link RunStore} applies the same way. */

/** Validates a projection and returns the canonical JSON of its report. */
export function checkProjection(
  runId: string,
  projection: ToolOutputProjectionInput,
  call: ToolCallRecord | undefined,
): string {
  checkId(projection.callId, 'callId');
  checkTurn(projection.turn);
  if (!call)
    throw new RunStoreError('call_not_found', 'No call to record a projection for', {
      runId,
      callId: projection.callId,
    });
  if (call.status !== 'admitted')
    throw new RunStoreError('call_not_admitted', 'A projection needs an admitted outcome', {
      runId,
      callId: projection.callId,
    });
  if (!isSha256Hex(projection.projectedSha256))
    throw new RunStoreError('record_invalid', 'projectedSha256 must be lowercase hex SHA-256', {
      runId,
      callId: call.callId,
    });
  if (call.toolName !== projection.toolName) {
    throw new RunStoreError('projection_conflict', `The call ran '${call.toolName}', not '${projection.toolName}'`, {
      runId,
      callId: call.callId,
    });
  }
  const report = projection.report as unknown;
  if (typeof report !== 'object' || report === null || Array.isArray(report))
    throw new RunStoreError('record_invalid', 'The projection report must be an object', { runId });
  return canonicalJson(report);
}

/** Throws `projection_conflict` unless the stored projection equals the new one. */
export function checkSameProjection(
  runId: string,
  stored: ProjectionRow,
  next: ToolOutputProjectionInput,
  reportJson: string,
): void {
  if (
    stored.tool_name !== next.toolName ||
    stored.projected_sha256 !== next.projectedSha256 ||
    canonicalJson(JSON.parse(stored.report_json)) !== reportJson
  ) {
    throw new RunStoreError('projection_conflict', 'The call is already bound to different projection data', {
      runId,
      callId: next.callId,
    });
  }
}

/**
 * Where the Tool message a projection audit describes lies among `texts` (the stored JSON of the messages
 * written with it, the first at `firstIndex`), and the hash of all it shows the model; empty when the batch
 * has no Tool message for the call.
 */
export function projectedContent(
  texts: readonly string[],
  firstIndex: number,
  callId: string,
): { contentSha256?: string; messageIndex?: number } {
  for (const [offset, text] of texts.entries()) {
    const message = splitOrigin(JSON.parse(text) as JsonValue).message as unknown as ChatMessage;
    if (message?.role === 'tool' && message.toolCallId === callId)
      return { contentSha256: toolContentSha256(message), messageIndex: firstIndex + offset };
  }
  return {};
}
