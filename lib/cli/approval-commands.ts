import { userInfo } from 'node:os';
import { AgentRunRecord } from '../durable/agent-run-record';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { CommandContext, emit, loadRecord, StoreOptions, withStore } from './command-context';
import { enqueueResumeOfQueuedRun, QueuedResume } from './queued-resume';
import { formatApproval, formatApprovalList } from './format-text';
import { approvalViews, ApprovalView } from './run-views';
import { oneLine } from './terminal-text';
import { loadRunTree } from '../agents/run-tree';
import { runsOfTree, withTreePath } from './run-tree-views';

/** Options of `wuwe approvals list`. */
export interface ApprovalsListOptions extends StoreOptions {
  readonly run?: string;
  /** Also decided approvals. @default only pending ones */
  readonly all?: boolean;
  readonly json?: boolean;
}

/** Options of `wuwe approvals approve|deny`. */
export interface DecideOptions extends StoreOptions {
  /** The SHA-256 the operator checked; the decision is refused when the stored arguments hash differently. */
  readonly argumentsSha256?: string;
  /** Who decides, for the audit record. @default the operating-system user */
  readonly by?: string;
  readonly reason?: string;
  readonly json?: boolean;
}

/**
 * `wuwe approvals list`: pending approvals (all with `--all`) of one run and the child runs below it (its agent tree),
 * or of every run, with tool, arguments and hash; an approval of a child run carries its `path` (run ids from the
 * tree's root) and `agents` (the agent tools' names along it).
 */
export async function approvalsList(io: CliIo, options: ApprovalsListOptions): Promise<number> {
  return withStore(io, options, async (context) => {
    const records: AgentRunRecord[] = [];
    if (options.run !== undefined) {
      const tree = await loadRunTree(context.store, options.run);
      records.push(...(tree === undefined ? [await loadRecord(context.store, options.run)] : runsOfTree(tree)));
    } else
      for (const summary of await context.store.listRuns()) {
        if (options.all !== true && summary.status !== 'running' && summary.status !== 'awaiting_approval') continue;
        const record = await context.store.loadRun(summary.runId);
        if (record !== undefined) records.push(record);
      }
    const paths = new Map<string, readonly AgentRunRecord[]>();
    const approvals: ApprovalView[] = [];
    for (const record of records)
      for (const approval of approvalViews(record))
        if (options.all === true || approval.state === 'pending')
          approvals.push(await withTreePath(context.store, record, approval, paths));
    emit(context, approvals, formatApprovalList(approvals));
    return 0;
  });
}

/**
 * `wuwe approvals approve|deny <run> <call>`: shows the tool, the arguments and their SHA-256, then
 * stores the decision bound to that hash. Refused (`conflict`, nothing written) when `--arguments-sha256`
 * differs from the stored hash, when the recorded arguments do not hash to it and no hash was given, or when
 * the approval was already decided the other way.
 */
export async function approvalsDecide(
  io: CliIo,
  approved: boolean,
  runId: string,
  callId: string,
  options: DecideOptions,
): Promise<number> {
  const given = options.argumentsSha256?.trim().toLowerCase();
  if (given !== undefined && !/^[0-9a-f]{64}$/.test(given))
    throw new CliError('usage', `--arguments-sha256 must be 64 hex digits, not '${options.argumentsSha256}'`);
  return withStore(io, { ...options, access: 'write' }, async (context) => {
    const record = await loadRecord(context.store, runId);
    // A call id can repeat across turns: the latest turn's approval is the one a run waits for.
    const approval = approvalViews(record)
      .filter((candidate) => candidate.callId === callId)
      .sort((a, b) => b.turn - a.turn)[0];
    if (approval === undefined)
      throw new CliError('not_found', `no approval was requested for call '${callId}' in run '${runId}'`);
    if (!context.json) io.stdout(formatApproval(approval));
    if (given !== undefined && given !== approval.argumentsSha256)
      throw new CliError(
        'conflict',
        `refused: the given SHA-256 ${given} is not the SHA-256 of the arguments awaiting approval (${approval.argumentsSha256}); nothing was decided`,
      );
    if (given === undefined && !approval.argumentsMatch)
      throw new CliError(
        'conflict',
        `refused: the arguments recorded in the run do not hash to the approval's SHA-256 ${approval.argumentsSha256}; ` +
          'check them and pass --arguments-sha256 to decide anyway',
      );
    const state = approved ? 'approved' : 'denied';
    if (approval.state !== 'pending' && approval.state !== state)
      throw new CliError(
        'conflict',
        `refused: call '${callId}' is already ${approval.state}${approval.decidedBy ? ` by ${approval.decidedBy}` : ''}`,
      );
    const stored = await context.store.decideApproval(
      runId,
      callId,
      {
        approved,
        toolName: approval.toolName,
        argumentsSha256: approval.argumentsSha256,
        decidedBy: options.by ?? defaultDecider(),
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      },
      { turn: approval.turn },
    );
    const decided: ApprovalView = {
      ...approval,
      state: stored.state,
      decidedBy: stored.decidedBy,
      reason: stored.reason,
      decidedAt: stored.decidedAt,
    };
    const after = await loadRecord(context.store, runId);
    const pending = after.approvals.filter((candidate) => candidate.state === 'pending').length;
    const resume =
      pending === 0 && after.status === 'awaiting_approval' ? await enqueueResume(context, after) : undefined;
    emit(
      context,
      {
        ...decided,
        runStatus: after.status,
        pendingApprovals: pending,
        resumeEnqueued: resume?.enqueued === true,
        ...(resume?.error === undefined ? {} : { resumeError: resume.error }),
      },
      `${oneLine`${approval.state === state ? 'already ' : ''}${state}: ${approval.toolName} ${callId}`}\n${resumeHint(runId, resume)}`,
    );
    if (resume?.error !== undefined) {
      context.io.stderr(
        `${oneLine`the decision is stored, but the resume of queued run ${runId} was not enqueued: ${resume.error}`}\n`,
      );
      return 1;
    }
    return 0;
  });
}

/** Enqueues the resume of a run a `RunQueue` started; `undefined` for a run that was not queued. */
async function enqueueResume(context: CommandContext, record: AgentRunRecord): Promise<QueuedResume | undefined> {
  return enqueueResumeOfQueuedRun(context.store, context.storeSpec, context.cwd, record);
}

function resumeHint(runId: string, resume: QueuedResume | undefined): string {
  if (resume === undefined)
    return `${oneLine`run ${runId} can now be resumed: wuwe resume ${runId} --agent <module>`}\n`;
  if (resume.enqueued)
    return `${oneLine`resume of run ${runId} enqueued on queue ${resume.queueName}: a worker continues it`}\n`;
  return resume.error === undefined ? `${oneLine`run ${runId} was already enqueued for resume`}\n` : '';
}

function defaultDecider(): string {
  try {
    return `${userInfo().username} (wuwe cli)`;
  } catch {
    return 'wuwe cli';
  }
}
