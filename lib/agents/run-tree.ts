import { AgentRunRecord } from '../durable/agent-run-record';
import { RunStore } from '../durable/run-store';
import { AGENT_NAME, childRunIdOf, PARENT_CALL_ID, PARENT_RUN_ID } from './child-run-id';

/** A run and the child runs its agent tool calls started, recursively, as {@link loadRunTree} reads them. */
export interface RunTree {
  readonly record: AgentRunRecord;
  /** The agent tool's name, for a child run. */
  readonly agent?: string;
  /** The parent's call that started this run, for a child run. */
  readonly parentCallId?: string;
  /** The turn of that call in the parent run, when the parent's record shows which call it was. */
  readonly parentTurn?: number;
  /** The child runs, in the order of the calls that started them (turn, then the parent's record order). */
  readonly children: readonly RunTree[];
}

/**
 * The tree of runs under `runId`: the run and every child run its agent tool calls started, and theirs, read from the
 * run metadata (`parentRunId`, `parentCallId`, `agent`) of the runs whose ids start with `runId/` (as every
 * descendant's does, see {@link childRunIdOf}). One `listRuns` and one `loadRun` per descendant: meant for tools
 * (the command line), not hot paths. `undefined` when the store has no run `runId`.
 */
export async function loadRunTree(store: RunStore, runId: string): Promise<RunTree | undefined> {
  const root = await store.loadRun(runId);
  if (root === undefined) return undefined;
  const byParent = new Map<string, AgentRunRecord[]>();
  for (const summary of await store.listRuns()) {
    if (!summary.runId.startsWith(`${runId}/`)) continue;
    const record = await store.loadRun(summary.runId);
    const parentRunId = record?.metadata?.[PARENT_RUN_ID];
    if (record === undefined || typeof parentRunId !== 'string') continue;
    if (typeof record.metadata?.[PARENT_CALL_ID] !== 'string') continue;
    const siblings = byParent.get(parentRunId) ?? [];
    siblings.push(record);
    byParent.set(parentRunId, siblings);
  }
  // Each run is placed once, under the parent its metadata names: a cycle of metadata cannot loop.
  const placed = new Set<string>([runId]);
  const build = (record: AgentRunRecord, parent?: AgentRunRecord): RunTree => {
    const children = (byParent.get(record.runId) ?? []).filter((child) => !placed.has(child.runId));
    children.forEach((child) => placed.add(child.runId));
    const link = parent === undefined ? {} : linkOf(record, parent);
    return {
      record,
      ...link,
      children: children
        .map((child) => build(child, record))
        .sort((a, b) => (a.parentTurn ?? Infinity) - (b.parentTurn ?? Infinity)),
    };
  };
  const parentRunId = root.metadata?.[PARENT_RUN_ID];
  const parent = typeof parentRunId === 'string' ? await store.loadRun(parentRunId) : undefined;
  return build(root, parent);
}

/**
 * The ancestors of a run, from the root of its tree down to its parent, followed through the `parentRunId` metadata
 * (a run whose parent is gone ends the path there).
 */
export async function ancestorsOf(store: RunStore, record: AgentRunRecord): Promise<AgentRunRecord[]> {
  const ancestors: AgentRunRecord[] = [];
  const seen = new Set<string>([record.runId]);
  let current = record;
  for (;;) {
    const parentRunId = current.metadata?.[PARENT_RUN_ID];
    if (typeof parentRunId !== 'string' || seen.has(parentRunId)) return ancestors;
    const parent = await store.loadRun(parentRunId);
    if (parent === undefined) return ancestors;
    seen.add(parentRunId);
    ancestors.unshift(parent);
    current = parent;
  }
}

/** The agent name, parent call and its turn of a child run: the call whose id and idempotency key derive its id. */
function linkOf(
  record: AgentRunRecord,
  parent: AgentRunRecord,
): Pick<RunTree, 'agent' | 'parentCallId' | 'parentTurn'> {
  const agent = record.metadata?.[AGENT_NAME];
  const callId = record.metadata?.[PARENT_CALL_ID];
  if (typeof callId !== 'string') return typeof agent === 'string' ? { agent } : {};
  const calls = parent.toolCalls.filter((call) => call.callId === callId);
  const started =
    calls.find(
      (call) =>
        call.idempotencyKey !== undefined && childRunIdOf(parent.runId, callId, call.idempotencyKey) === record.runId,
    ) ?? (calls.length === 1 ? calls[0] : undefined);
  return {
    ...(typeof agent === 'string' ? { agent } : {}),
    parentCallId: callId,
    ...(started === undefined ? {} : { parentTurn: started.turn }),
  };
}
