import { AGENT_RUN_STATUSES, AgentRunStatus } from '../durable/agent-run-record';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { emit, loadChainedRecord, StoreOptions, withStore } from './command-context';
import { formatRunList, formatRunView } from './format-text';
import { runListRow, RunListRow, runView } from './run-views';

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
 * head and every call's hashes (arguments, admitted outcome, what the model saw).
 */
export async function runsShow(
  io: CliIo,
  runId: string,
  options: StoreOptions & { readonly json?: boolean },
): Promise<number> {
  return withStore(io, options, async (context) => {
    const { chain, ...record } = await loadChainedRecord(context, runId);
    const view = runView(record, chain);
    emit(context, view, formatRunView(view));
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
