import { AgentRunRecord, AgentRunStatus } from '../durable/agent-run-record';
import { RunStore } from '../durable/run-store';
import { AGENT_NAME } from '../agents/child-run-id';
import { ancestorsOf, RunTree } from '../agents/run-tree';
import { approvalViews, ApprovalView } from './run-views';

/** A child run as `wuwe runs show` reports it, under the call that started it, with its own children. */
export interface ChildRunView {
  readonly runId: string;
  /** The agent tool's name. */
  readonly agent?: string;
  /** The parent's call that started it. */
  readonly parentCallId?: string;
  /** The turn of that call, when the parent's record shows it. */
  readonly parentTurn?: number;
  readonly status: AgentRunStatus;
  /** Model requests answered. */
  readonly steps: number;
  /** Approvals this run itself waits for. */
  readonly pendingApprovals: number;
  readonly children: readonly ChildRunView[];
}

/** An approval of a run in an agent tree, with the way to it. */
export interface TreeApprovalView extends ApprovalView {
  /** The run ids from the top of the tree shown down to the approval's run (the run itself last). */
  readonly path: readonly string[];
  /** The agent tools' names along `path`, below its first run. */
  readonly agents: readonly string[];
}

/** The child runs of a tree, recursively, as {@link ChildRunView}s. */
export function childRunViews(tree: RunTree): ChildRunView[] {
  return tree.children.map((child) => ({
    runId: child.record.runId,
    ...(child.agent === undefined ? {} : { agent: child.agent }),
    ...(child.parentCallId === undefined ? {} : { parentCallId: child.parentCallId }),
    ...(child.parentTurn === undefined ? {} : { parentTurn: child.parentTurn }),
    status: child.record.status,
    steps: child.record.messages.filter((message) => message.role === 'assistant').length,
    pendingApprovals: child.record.approvals.filter((approval) => approval.state === 'pending').length,
    children: childRunViews(child),
  }));
}

/** Every pending approval in a tree, the top run's first, then depth first, each with its path from the top. */
export function treeApprovalViews(tree: RunTree, above: readonly AgentRunRecord[] = []): TreeApprovalView[] {
  const path = [...above, tree.record];
  const own = approvalViews(tree.record)
    .filter((approval) => approval.state === 'pending')
    .map((approval) => withPath(approval, path));
  return [...own, ...tree.children.flatMap((child) => treeApprovalViews(child, path))];
}

/** Every run of a tree, the top first, depth first. */
export function runsOfTree(tree: RunTree): AgentRunRecord[] {
  return [tree.record, ...tree.children.flatMap(runsOfTree)];
}

/**
 * An approval with its path from the root of its run's tree (through the `parentRunId` metadata), or as it is for a
 * run that is no child run. `cache` keeps the paths found, by run id.
 */
export async function withTreePath(
  store: RunStore,
  record: AgentRunRecord,
  approval: ApprovalView,
  cache: Map<string, readonly AgentRunRecord[]>,
): Promise<ApprovalView | TreeApprovalView> {
  let ancestors = cache.get(record.runId);
  if (ancestors === undefined) {
    ancestors = await ancestorsOf(store, record);
    cache.set(record.runId, ancestors);
  }
  return ancestors.length === 0 ? approval : withPath(approval, [...ancestors, record]);
}

function withPath(approval: ApprovalView, path: readonly AgentRunRecord[]): TreeApprovalView {
  return {
    ...approval,
    path: path.map((run) => run.runId),
    agents: path.slice(1).map((run) => {
      const agent = run.metadata?.[AGENT_NAME];
      return typeof agent === 'string' ? agent : '?';
    }),
  };
}

/** True when `approval` carries a path through an agent tree. */
export function isTreeApproval(approval: ApprovalView): approval is TreeApprovalView {
  return Array.isArray((approval as Partial<TreeApprovalView>).path);
}

/** The path of an approval for a table: the top run's id, then the agents' names (`tree > delegate > cleanup`). */
export function pathText(approval: TreeApprovalView): string {
  return [approval.path[0], ...approval.agents].join(' > ');
}
