import type { AgentRunRecord, ToolCallRecord } from '../../durable/agent-run-record';
import { HandoffEntry } from './handoff';
import { HandoffAgent, ResolvedHandoff, targetAgentOf } from './handoff-agents';
import { HandoffError } from './handoff-error';
import { handoffOfOutcome, transferOf } from './transfer-tools';

/** The run metadata key naming the runner a run started on (its `name`), for a resume to find it. @internal */
export const ENTRY_AGENT_KEY = 'entryAgent';

/**
 * What the handoffs of a stored run are read from: its conversation and calls, and when there, the origins of its
 * messages and its metadata (`entryAgent`, the runner it started on).
 */
export type HandoffRecord = Pick<AgentRunRecord, 'messages' | 'toolCalls'> &
  Partial<Pick<AgentRunRecord, 'runId' | 'metadata' | 'messageOrigins'>>;

/**
 * A recorded call that may have been a transfer: admitted, answered by a Tool message that is no error, asked for by
 * a model response (a message a caller wrote never had its calls run), its outcome recording a handoff
 * (`metadata.handoff`). Any tool can answer such an outcome: only the agent holding the run decides. @internal
 */
export interface TransferCandidate {
  readonly turn: number;
  readonly call: ToolCallRecord;
  /** The outcome's `from`. */
  readonly from: string;
  /** The outcome's `to`. */
  readonly to: string;
}

/** Answers what holds the run after `candidate`, or undefined when the holder made no transfer with it. @internal */
export type FollowTransfer<Holder> = (holder: Holder, candidate: TransferCandidate) => Holder | undefined;

/**
 * The transfers of a record, replayed as the live run made them: in record order from `start`, turn by turn, the
 * first candidate of a turn that `follow` accepts from the holder of that point hands the run over; the turn's other
 * candidates were ordinary calls (a turn makes one transfer, and only a later turn hands the run over again).
 * @internal
 */
export function replayTransfers<Holder>(
  record: HandoffRecord,
  start: Holder,
  follow: FollowTransfer<Holder>,
): { readonly holder: Holder; readonly entries: readonly HandoffEntry[] } {
  let holder = start;
  const entries: HandoffEntry[] = [];
  let turn = 0;
  let open = false; // the turn is a model response's and has not handed the run over yet
  const admitted = new Map<string, ToolCallRecord>();
  for (const call of record.toolCalls)
    if (call.status === 'admitted') admitted.set(`${call.turn}\u0000${call.callId}`, call);
  record.messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      turn++;
      open = (record.messageOrigins?.[index] ?? 'unrecorded') !== 'other';
      return;
    }
    if (message.role !== 'tool' || message.isError || !open) return;
    const call = admitted.get(`${turn}\u0000${message.toolCallId}`);
    const recorded = handoffOfOutcome(call?.outcome);
    if (call === undefined || recorded === undefined || call.toolName !== message.toolName) return;
    const next = follow(holder, { turn, call, ...recorded });
    if (next === undefined) return;
    holder = next;
    open = false;
    entries.push({ turn, callId: call.callId, ...recorded });
  });
  return { holder, entries };
}

/** An agent holding a run: the handoff that gave it the run, unless it is the runner the replay started from. */
export interface Holding {
  readonly agent: HandoffAgent;
  readonly edge?: ResolvedHandoff;
}

/** A stored run as its configured handoffs replay it (see {@link replayConfigured}). @internal */
export interface ReplayedHandoffs {
  /** The agent holding the run after the last transfer (before any, the runner it started on). */
  readonly holding: Holding;
  /** The turn of the last transfer (0 without one). */
  readonly turn: number;
  /** The transfers, in order. */
  readonly entries: readonly HandoffEntry[];
}

/**
 * The handoffs of a stored run as a resume by `start` sees them: from the runner the run started on (its metadata's
 * `entryAgent`, found among the runners `start`'s handoffs reach, itself included; `start` for a record naming none),
 * a call hands the run over only when it is a transfer of the agent holding the run at that point: a handoff
 * configured on that runner, its transfer tool the call's tool, its name the recorded `to`, the recorded `from` the
 * holder's name. That is the test the live run makes (`transferOf`); an ordinary tool whose outcome looks like a
 * transfer (whatever its name) hands nothing over, live or on resume. `HandoffError` `handoff_not_found` when the
 * entry agent is not reached (or two different runners of its name are), or a target cannot be read. @internal
 */
export function replayConfigured(start: HandoffAgent, record: HandoffRecord): ReplayedHandoffs {
  const entry = record.metadata?.[ENTRY_AGENT_KEY];
  const origin = typeof entry === 'string' ? entryHolding(start, entry, record.runId) : { agent: start };
  const { holder, entries } = replayTransfers<Holding>(record, origin, (holding, candidate) => {
    const transfer = transferOf(holding.agent, candidate.call.toolName, candidate.call.outcome);
    return transfer === undefined ? undefined : { agent: targetAgentOf(transfer.edge), edge: transfer.edge };
  });
  return { holding: holder, turn: entries.at(-1)?.turn ?? 0, entries };
}

/** The runner named `entry` that `start` reaches (itself included), exactly one, else `handoff_not_found`. */
function entryHolding(start: HandoffAgent, entry: string, runId: string | undefined): Holding {
  const found = reachable(start, entry);
  if (found.length === 1) return found[0];
  const run = runId === undefined ? 'the run' : `run '${runId}'`;
  throw new HandoffError(
    'handoff_not_found',
    found.length === 0
      ? `${run} started on agent '${entry}', which is not this runner and which its handoffs do not reach; resume it with a runner that reaches it`
      : `${run} started on agent '${entry}', and this runner's handoffs reach two different runners of that name`,
  );
}

/** The agents named `name` reachable from `start` (itself, without an edge, when its own name is `name`). */
function reachable(start: HandoffAgent, name: string): Holding[] {
  const found = new Map<HandoffAgent, ResolvedHandoff | undefined>();
  if (start.name === name) found.set(start, undefined);
  const seen = new Set<HandoffAgent>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const agent = queue.shift() as HandoffAgent;
    for (const edge of agent.handoffs) {
      const target = targetAgentOf(edge);
      if (edge.name === name && !found.has(target)) found.set(target, edge);
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...found].map(([agent, edge]) => ({ agent, ...(edge === undefined ? {} : { edge }) }));
}
