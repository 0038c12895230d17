import type { AgentRunRecord } from '../../durable/agent-run-record';
import { InMemoryMemory } from '../../model/memory';
import type { ChatMessage } from '../../model/model-types';
import type { RunInProgress } from '../run-state';
import type { StepContext } from '../tool-call/step-context';
import { agentOfSteps, HandoffAgent, ResolvedHandoff, targetAgentOf } from './handoff-agents';
import { HandoffError } from './handoff-error';
import { ENTRY_AGENT_KEY, replayConfigured } from './handoff-replay';
import { transferOf } from './transfer-tools';

/** The agent that holds a run after a handoff. @internal */
export interface ActiveHandoff {
  readonly agent: HandoffAgent;
  /** The handoff's name (its `to`). */
  readonly name: string;
  readonly inputFilter?: ResolvedHandoff['inputFilter'];
  /** The turn of the transfer: only a later turn's transfer hands the run over again. */
  readonly turn: number;
}

/** The agents a run was held by, so their own memories forget it with the run's runner's. */
const visitedAgents = new WeakMap<RunInProgress, Set<HandoffAgent>>();

/** The steps the run continues with: the holding agent's after a handoff, else the runner's own. @internal */
export function activeSteps(run: RunInProgress, steps: StepContext): StepContext {
  return run.handoff?.agent.steps ?? steps;
}

/**
 * After a turn's Tool messages are recorded: when a call of the turn was a transfer of the agent holding the run
 * (admitted, its Tool message recorded; see `transferOf`: a handoff configured on the holder, from the holder), the
 * run continues with the target: its steps (model, tools), its `system`, `activeTools` and `toolChoice`; a `handoff`
 * event is sent. The first such call of the turn counts. A resume replays the record by the same test. @internal
 */
export function applyTurnHandoff(steps: StepContext, run: RunInProgress): void {
  const holder = run.handoff?.agent ?? agentOfSteps(steps);
  if (holder === undefined || holder.handoffs.length === 0) return;
  if (run.handoff !== undefined && run.turn <= run.handoff.turn) return;
  const answered = answeredCallIds(run.messages);
  for (const call of run.toolCalls) {
    if (call.turn !== run.turn || !answered.has(call.callId)) continue;
    const transfer = transferOf(holder, call.toolName, call.outcome);
    if (transfer === undefined) continue;
    const { edge, from } = transfer;
    hand(run, edge, targetAgentOf(edge), run.turn);
    steps.emit(run, { type: 'handoff', runId: run.runId, turn: run.turn, callId: call.callId, from, to: edge.name });
    return;
  }
}

/** The metadata a new run of a named runner is created with: its name (`entryAgent`). @internal */
export function entryAgentMetadata(steps: StepContext): { readonly [ENTRY_AGENT_KEY]: string } | undefined {
  const name = agentOfSteps(steps)?.name;
  return name === undefined ? undefined : { [ENTRY_AGENT_KEY]: name };
}

/**
 * On resume, before the pending calls run: the run continues with the agent holding it, found by replaying the
 * record's transfers from the runner it started on (its metadata's `entryAgent`, among the runners reachable from
 * the resuming runner, itself included) along the handoffs configured on each holder, as the live run made them
 * (`replayConfigured`): a call that was not a transfer of its holder (an ordinary tool whose outcome looks like one)
 * hands nothing over. `HandoffError` `handoff_not_found` when the resuming runner does not reach the entry agent
 * (or reaches two different runners of that name). A run that names no agent is replayed from the resuming runner.
 * @internal
 */
export function restoreHandoff(steps: StepContext, run: RunInProgress, record: AgentRunRecord | undefined): void {
  if (record === undefined) return;
  const start = agentOfSteps(steps);
  if (start === undefined) {
    const entry = record.metadata?.[ENTRY_AGENT_KEY];
    if (typeof entry === 'string')
      throw new HandoffError('handoff_not_found', `run '${run.runId}' started on agent '${entry}', not this runner`);
    return;
  }
  const { holding, turn } = replayConfigured(start, record);
  if (holding.edge === undefined) return; // the resuming runner holds the run
  hand(run, holding.edge, holding.agent, turn);
}

/**
 * The messages the next model request sends: the conversation, filtered by the holding handoff's `inputFilter`
 * (`HandoffError` `input_filter_failed` when it throws or answers no message list). @internal
 */
export function requestMessagesOf(run: RunInProgress): ChatMessage[] {
  const messages = run.messages.slice();
  const filter = run.handoff?.inputFilter;
  if (filter === undefined) return messages;
  let filtered: unknown;
  try {
    filtered = filter(messages);
  } catch (error) {
    throw new HandoffError('input_filter_failed', `the inputFilter of handoff '${run.handoff?.name}' threw`, {
      cause: error,
    });
  }
  if (!Array.isArray(filtered) || !filtered.every(isMessage))
    throw new HandoffError(
      'input_filter_failed',
      `the inputFilter of handoff '${run.handoff?.name}' must answer an array of messages`,
    );
  return filtered.slice() as ChatMessage[];
}

/** The handoff agents' own memories forget the run, as its runner's does (runs without `memory`). @internal */
export function forgetHandoffMemories(run: RunInProgress): void {
  if (run.options.memory !== undefined) return;
  for (const agent of visitedAgents.get(run) ?? []) {
    const memory = agent.memory();
    if (memory instanceof InMemoryMemory) memory.forget(run.runId);
  }
}

function hand(run: RunInProgress, edge: ResolvedHandoff, agent: HandoffAgent, turn: number): void {
  run.handoff = {
    agent,
    name: edge.name,
    turn,
    ...(edge.inputFilter === undefined ? {} : { inputFilter: edge.inputFilter }),
  };
  const { system, activeTools, toolChoice } = agent.defaults;
  run.options = { ...run.options, system, activeTools, toolChoice };
  if (run.control !== undefined) run.control = { ...run.control, toolNames: agent.toolNames, activeTools: undefined };
  const visited = visitedAgents.get(run) ?? new Set<HandoffAgent>();
  visitedAgents.set(run, visited.add(agent));
}

/** Call ids of the Tool messages after the last assistant message. */
function answeredCallIds(messages: readonly ChatMessage[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message.role === 'assistant') break;
    if (message.role === 'tool') ids.add(message.toolCallId);
  }
  return ids;
}

function isMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { role?: unknown }).role === 'string';
}
