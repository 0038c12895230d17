import type { LlmAgentRunner } from '../llm-agent-runner';
import { HandoffEntry, transferToolName } from './handoff';
import { agentOfRunner } from './handoff-agents';
import { HandoffError } from './handoff-error';
import { ENTRY_AGENT_KEY, HandoffRecord, replayConfigured, replayTransfers } from './handoff-replay';
import { looksLikeTransfer } from './transfer-tools';

/**
 * The handoffs of a stored run, in order, replayed from the runner it started on (metadata `entryAgent`): turn by
 * turn, the first transfer of the agent holding the run hands it to the transfer's `to`; the last one's `to` holds
 * the conversation (a resume continues with it). A run without handoffs answers `[]`. The entries come from the
 * record's hash-chained calls and messages, so `loadRun` refuses a record whose handoffs were edited
 * (`record_tampered`).
 *
 * With `runner` (the entry agent, or a runner whose handoffs reach it), the answer is what `runner.resume()` follows:
 * a call is a transfer only when the handoffs configured on the agent then holding the run have it as a transfer
 * tool (`HandoffError` `handoff_not_found` when `runner` does not reach the entry agent, as for the resume).
 *
 * Without `runner`, only the record is read, and it does not say which tools a runner had: a call is listed when it
 * is the first of its turn to chain on (its `from` the holder: the first one's the entry agent, or in a record that
 * names none, its own `from`), is named
 * `transfer_to_<to>`, took no arguments and answered exactly a transfer's outcome, in a model response. An ordinary
 * tool of the holder named `transfer_to_<x>` that answers exactly that outcome cannot be told from a transfer there:
 * pass the runner to check the record against the configured handoffs.
 */
export function handoffsOf(record: HandoffRecord, runner?: LlmAgentRunner): readonly HandoffEntry[] {
  if (runner !== undefined) {
    const start = agentOfRunner(runner);
    if (start === undefined)
      throw new HandoffError(
        'handoff_not_found',
        'handoffsOf: the runner to replay the handoffs with is no LlmAgentRunner',
      );
    return replayConfigured(start, record).entries;
  }
  const entry = record.metadata?.[ENTRY_AGENT_KEY];
  const start: string | undefined = typeof entry === 'string' ? entry : undefined;
  return replayTransfers(record, start, (holder, { call, from, to }) =>
    (holder === undefined || from === holder) &&
    call.toolName === transferToolName(to) &&
    looksLikeTransfer(call.outcome, call.arguments, from, to)
      ? to
      : undefined,
  ).entries;
}
