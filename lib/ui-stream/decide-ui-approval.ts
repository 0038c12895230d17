import { canonicalArgumentsSha256 } from '../durable/canonical-arguments';
import { RunStoreError } from '../durable/run-store-error';
import { LlmAgentError } from '../runner/runner-error';
import { keyOfSigning, UIApprovalBinding, verifyUIApprovalId } from './ui-approval-id';
import { isPlainObject, own, PlainObject, toolNameOfPart } from './ui-message-parts';
import type { UIApprovalDecisions, UIStreamApprovals } from './ui-stream-options';
import { UIStreamError } from './ui-stream-error';

/** Options of {@link decideUIApproval}: the signing and store of the stream, and who decides. */
export interface DecideUIApprovalOptions extends UIStreamApprovals {
  /** The principal the host authenticated for this request, recorded as the decision's `decidedBy`. */
  readonly decidedBy: string;
}

/** One approval response of the client, checked against its signed id. */
interface CheckedResponse {
  readonly binding: UIApprovalBinding;
  readonly approved: boolean;
  readonly reason?: string;
}

/**
 * Decides, through the run store's approval path, the approval responses a client sends back (`useChat`'s
 * `addToolApprovalResponse`: the tool parts of its last message in the `approval-responded` state). Each response's
 * approval id must be one this host signed ({@link toUIMessageStream} with the same secret), for the call, tool and
 * input the part shows, and for an approval the store still holds pending with that arguments hash; the decision is
 * recorded with `decidedBy`, bound to that hash. Then resume the run with `runner.resumeStream(runId, { store })`
 * and pass the result as `continues` to {@link toUIMessageStream}.
 *
 * Every response is checked before any is recorded. Returns `undefined` when the last message holds no approval
 * response (a new user message: take it with `fromUIMessages()`).
 *
 * @throws {@link UIStreamError} `approval_forged` (an id not issued here, another call, tool or input, an approval
 *   the store does not hold), `approval_replayed` (already decided), `invalid_options`; {@link wuwe!LlmAgentError}
 *   `invalid_input` for a response of the wrong shape. Nothing is decided and nothing runs.
 */
export async function decideUIApproval(
  messages: unknown,
  options: DecideUIApprovalOptions,
): Promise<UIApprovalDecisions | undefined> {
  keyOfSigning(options);
  if (typeof options.decidedBy !== 'string' || options.decidedBy.length === 0)
    throw new UIStreamError('invalid_options', '`decidedBy` must name the principal who decides');
  const responses = approvalResponsesOf(messages).map((part) => checkedResponse(part, options));
  if (responses.length === 0) return undefined;
  const { runId, turn } = responses[0].binding;
  const seen = new Set<string>();
  for (const { binding } of responses) {
    if (binding.runId !== runId || binding.turn !== turn)
      throw forged('one request answers the approvals of one turn of one run', binding);
    if (seen.has(binding.callId)) throw forged('two responses answer the same call', binding);
    seen.add(binding.callId);
  }
  await checkPending(responses, options);
  for (const { binding, approved, reason } of responses) {
    const { callId, toolName, argumentsSha256 } = binding;
    const decision = { approved, toolName, argumentsSha256, decidedBy: options.decidedBy, reason };
    try {
      await options.store.decideApproval(runId, callId, decision, { turn });
    } catch (error) {
      if (RunStoreError.isInstance(error) && error.code === 'approval_mismatch')
        throw new UIStreamError(
          'approval_replayed',
          `the approval of call '${callId}' was decided meanwhile`,
          binding,
          {
            cause: error,
          },
        );
      throw error;
    }
  }
  return {
    runId,
    turn,
    decisions: responses.map(({ binding, approved }) => ({
      callId: binding.callId,
      toolName: binding.toolName,
      approved,
    })),
  };
}

/** The tool parts of the last message that answer an approval. @throws {@link wuwe!LlmAgentError} `invalid_input`. */
function approvalResponsesOf(messages: unknown): PlainObject[] {
  if (!Array.isArray(messages)) throw new LlmAgentError('invalid_input', 'the UI messages must be a list');
  const last: unknown = messages[messages.length - 1];
  if (!isPlainObject(last) || own(last, 'role') !== 'assistant') return [];
  const parts = own(last, 'parts');
  if (!Array.isArray(parts)) throw new LlmAgentError('invalid_input', 'the last UI message has no `parts` list');
  return parts.filter(
    (part): part is PlainObject =>
      isPlainObject(part) && toolNameOfPart(part) !== undefined && own(part, 'state') === 'approval-responded',
  );
}

/** A response checked against its signed id: the part shows the call, tool and input the id binds. */
function checkedResponse(part: PlainObject, signing: UIStreamApprovals): CheckedResponse {
  const approval = own(part, 'approval');
  if (!isPlainObject(approval))
    throw new LlmAgentError('invalid_input', 'an `approval-responded` tool part has no `approval` object');
  const approved = own(approval, 'approved');
  const reason = own(approval, 'reason');
  if (typeof approved !== 'boolean') throw new LlmAgentError('invalid_input', 'an approval response needs `approved`');
  if (reason !== undefined && typeof reason !== 'string')
    throw new LlmAgentError('invalid_input', 'the `reason` of an approval response must be text');
  const binding = verifyUIApprovalId(own(approval, 'id'), signing);
  if (own(part, 'toolCallId') !== binding.callId) throw forged('the tool part is of another call', binding);
  if (toolNameOfPart(part) !== binding.toolName) throw forged('the tool part names another tool', binding);
  if (inputSha256(own(part, 'input')) !== binding.argumentsSha256)
    throw forged('the tool part shows other arguments than the approval was requested for', binding);
  return { binding, approved, ...(reason === undefined ? {} : { reason }) };
}

/** Each response names an approval the store holds pending, for the tool and arguments hash the id binds. */
async function checkPending(responses: readonly CheckedResponse[], options: DecideUIApprovalOptions): Promise<void> {
  const { runId } = responses[0].binding;
  const record = await options.store.loadRun(runId);
  if (record === undefined) throw forged('the store holds no such run', responses[0].binding);
  for (const { binding } of responses) {
    const stored = record.approvals.find(
      (approval) => approval.turn === binding.turn && approval.callId === binding.callId,
    );
    if (
      stored === undefined ||
      stored.toolName !== binding.toolName ||
      stored.argumentsSha256 !== binding.argumentsSha256
    )
      throw forged('the store holds no such approval', binding);
    if (stored.state !== 'pending')
      throw new UIStreamError(
        'approval_replayed',
        `the approval of call '${binding.callId}' (turn ${binding.turn}) was already ${stored.state}`,
        binding,
      );
  }
}

function inputSha256(input: unknown): string | undefined {
  try {
    return canonicalArgumentsSha256(input ?? {});
  } catch {
    return undefined;
  }
}

function forged(why: string, binding: UIApprovalBinding): UIStreamError {
  const { runId, callId, turn } = binding;
  return new UIStreamError('approval_forged', `the approval response was refused: ${why}`, { runId, callId, turn });
}
