import { ChildRunView, pathText, TreeApprovalView } from './run-tree-views';
import { oneLine } from './terminal-text';
import { table } from './format-text';

/**
 * The agent tree part of `runs show`: each child run on one line under the call that started it (indented by
 * depth), then the approvals waiting anywhere in the tree with their paths. Empty for a run without child runs.
 */
export function formatRunTree(childRuns: readonly ChildRunView[], approvals: readonly TreeApprovalView[]): string {
  if (childRuns.length === 0) return '';
  const lines: string[] = [`child runs (${countRuns(childRuns)}):`];
  const walk = (runs: readonly ChildRunView[], depth: number): void => {
    for (const run of runs) {
      const call = `${run.parentTurn === undefined ? '' : `turn ${run.parentTurn} `}${run.parentCallId ?? '?'}`;
      const pending = run.pendingApprovals === 0 ? '' : `, ${run.pendingApprovals} pending approval(s)`;
      lines.push(
        `${'  '.repeat(depth + 1)}${oneLine`${call} ${run.agent ?? '?'} -> run ${run.runId}: ${run.status}, ${run.steps} step(s)${pending}`}`,
      );
      walk(run.children, depth + 1);
    }
  };
  walk(childRuns, 0);
  lines.push(`approvals waiting in the tree (${approvals.length}):`);
  if (approvals.length > 0)
    lines.push(
      indent(
        table(
          ['PATH', 'RUN', 'TURN', 'CALL', 'TOOL', 'ARGUMENTS SHA-256'],
          approvals.map((approval) => [
            pathText(approval),
            approval.runId,
            String(approval.turn),
            approval.callId,
            approval.toolName,
            approval.argumentsSha256,
          ]),
        ),
      ),
    );
  return lines.join('\n') + '\n';
}

function countRuns(runs: readonly ChildRunView[]): number {
  return runs.reduce((total, run) => total + 1 + countRuns(run.children), 0);
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
