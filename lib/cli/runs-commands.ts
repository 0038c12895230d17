import { AGENT_RUN_STATUSES, AgentRunStatus } from '../durable/agent-run-record';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { emit, loadChainedRecord, StoreOptions, withStore } from './command-context';
import { formatRunList, formatRunView } from './format-text';
import { runListRow, RunListRow, runView, RunView } from './run-views';
import { loadRunTree } from '../agents/run-tree';
import { formatRunTree } from './format-tree';
import { ChildRunView, childRunViews, TreeApprovalView, treeApprovalViews } from './run-tree-views';

/** What `wuwe runs show` reports: the run, and the child runs of its agent tool calls with their waiting approvals. */
export interface RunShowView extends RunView {
  /** The child runs, each under the call that started it, recursively. */
  readonly childRuns: readonly ChildRunView[];
  /** The pending approvals of the run and of every run below it, each with its path from this run. */
  readonly treeApprovals: readonly TreeApprovalView[];
}

/** Options of `wuwe runs list`. */
export interface RunsListOptions extends StoreOptions {
  readonly status?: string;
  readonly json?: boolean;
}

/** `wuwe runs list`: every run, oldest first, with status, creation time, steps, calls and pending approvals. */
export async function runsList(io: CliIo, options: RunsListOptions): Promise<number> {
  const status = options.status === undefined ? undefined : parseStatus(options.status);
  return withStore(io, options, async (context) => {
    const rows: RunListRow[] = [];
    for (const summary of await context.store.listRuns(status)) {
      const record = await context.store.loadRun(summary.runId);
      if (record !== undefined) rows.push(runListRow(record));
    }
    emit(context, rows, formatRunList(rows));
    return 0;
  });
}

/**
 * `wuwe runs show <run>`: messages summary, tool calls with outcomes, approvals and projections, the record chain's
 * head and every call's hashes (arguments, admitted outcome, what the model saw); then the child runs its agent tool
 * calls started (recursively, under the calls) and the approvals waiting anywhere in that tree.
 */
export async function runsShow(
  io: CliIo,
  runId: string,
  options: StoreOptions & { readonly json?: boolean },
): Promise<number> {
  return withStore(io, options, async (context) => {
    const { chain, ...record } = await loadChainedRecord(context, runId);
    const tree = (await loadRunTree(context.store, runId)) ?? { record, children: [] };
    const view: RunShowView = {
      ...runView(record, chain),
      childRuns: childRunViews(tree),
      treeApprovals: treeApprovalViews({ ...tree, record }),
    };
    emit(context, view, formatRunView(view) + formatRunTree(view.childRuns, view.treeApprovals));
    return 0;
  });
}

/** Parses a `--status` value, or throws a `usage` error naming the valid ones. */
export function parseStatus(value: string): AgentRunStatus {
  if ((AGENT_RUN_STATUSES as readonly string[]).includes(value)) return value as AgentRunStatus;
  throw new CliError('usage', `--status must be one of ${AGENT_RUN_STATUSES.join(', ')}, not '${value}'`);
}

/** Parses a positive number of milliseconds given as an option, or throws a `usage` error. */
export function parseMs(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new CliError('usage', `${name} must be a positive number of milliseconds, not '${value}'`);
  return ms;
}
