import { hashRows } from './record-hash-views';
import { ApprovalView, RunListRow, RunView, shorten } from './run-views';
import { isTreeApproval, pathText } from './run-tree-views';
import { escapeTerminalLine, oneLine } from './terminal-text';

/**
 * Formats rows as a plain text table with a header, columns padded to their widest cell. Each cell is escaped
 * for the terminal on one line: a newline in a record's text cannot forge a row.
 */
export function table(header: readonly string[], unescapedRows: readonly (readonly string[])[]): string {
  const rows = unescapedRows.map((row) => row.map(escapeTerminalLine));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/** The text of `runs list`. */
export function formatRunList(rows: readonly RunListRow[]): string {
  if (rows.length === 0) return 'no runs\n';
  return table(
    ['RUN', 'STATUS', 'CREATED', 'STEPS', 'CALLS', 'PENDING'],
    rows.map((row) => [
      row.runId,
      row.status,
      row.createdAt,
      String(row.steps),
      String(row.toolCalls),
      String(row.pendingApprovals),
    ]),
  );
}

/**
 * The text of `approvals list`; with a last `PATH` column (the tree's root run, then the agents' names) when an
 * approval is in a child run.
 */
export function formatApprovalList(approvals: readonly ApprovalView[]): string {
  if (approvals.length === 0) return 'no approvals\n';
  const withPaths = approvals.some(isTreeApproval);
  return table(
    ['RUN', 'TURN', 'CALL', 'TOOL', 'STATE', 'ARGUMENTS SHA-256', 'ARGUMENTS', ...(withPaths ? ['PATH'] : [])],
    approvals.map((approval) => [
      approval.runId,
      String(approval.turn),
      approval.callId,
      approval.toolName,
      approval.state,
      approval.argumentsSha256,
      approval.arguments === undefined ? '(not recorded)' : shorten(JSON.stringify(approval.arguments), 60),
      ...(withPaths ? [isTreeApproval(approval) ? pathText(approval) : ''] : []),
    ]),
  );
}

/** Describes one approval in full: the tool, the arguments and the hash a decision is bound to. */
export function formatApproval(approval: ApprovalView): string {
  const lines = [
    oneLine`run:               ${approval.runId}`,
    oneLine`call:              ${approval.callId}`,
    oneLine`turn:              ${approval.turn}`,
    oneLine`tool:              ${approval.toolName}`,
    oneLine`arguments:         ${approval.arguments === undefined ? '(not recorded in the run)' : JSON.stringify(approval.arguments)}`,
    oneLine`arguments SHA-256: ${approval.argumentsSha256}${approval.argumentsMatch ? '' : '  (does NOT match the recorded arguments)'}`,
    oneLine`state:             ${approval.state}`,
  ];
  if (approval.decidedBy !== undefined) lines.push(oneLine`decided by:        ${approval.decidedBy}`);
  if (approval.decidedAt !== undefined) lines.push(oneLine`decided at:        ${approval.decidedAt}`);
  if (approval.reason !== undefined) lines.push(oneLine`reason:            ${approval.reason}`);
  return lines.join('\n') + '\n';
}

/** The text of `runs show`. */
export function formatRunView(view: RunView): string {
  const out: string[] = [
    oneLine`run:      ${view.runId}`,
    oneLine`status:   ${view.status}`,
    oneLine`created:  ${view.createdAt}`,
    oneLine`updated:  ${view.updatedAt}`,
    oneLine`steps:    ${view.steps}`,
    oneLine`messages: ${view.messages.total} (${view.messages.user} user, ${view.messages.assistant} assistant, ${view.messages.tool} tool)`,
  ];
  if (view.chain !== undefined)
    out.push(
      oneLine`chain:    ${view.chain.entries} entries, head ${view.chain.head ?? '(none)'}, ${view.chain.migratedEntries} from migration`,
    );
  if (view.metadata !== undefined) out.push(oneLine`metadata: ${JSON.stringify(view.metadata)}`);
  if (view.lease !== undefined)
    out.push(oneLine`lease:    ${view.lease.workerId} until ${new Date(view.lease.expiresAtMs).toISOString()}`);
  if (view.guardrail !== undefined) out.push(oneLine`guardrail: ${shorten(view.guardrail.text)}`);
  else if (view.messages.lastAssistantText !== undefined)
    out.push(oneLine`last answer: ${shorten(view.messages.lastAssistantText)}`);
  out.push('');
  out.push(
    ...section(
      'tool calls',
      ['TURN', 'CALL', 'TOOL', 'RECORDED', 'ATTEMPTS', 'OUTCOME', 'ARGUMENTS'],
      view.toolCalls.map((call) => [
        String(call.turn),
        call.callId,
        call.toolName,
        call.recorded,
        String(call.attempts),
        call.errorCode ? `${call.outcome} ${call.errorCode}` : call.outcome,
        shorten(JSON.stringify(call.arguments), 60),
      ]),
    ),
    ...section(
      'approvals',
      ['TURN', 'CALL', 'TOOL', 'STATE', 'BY', 'REASON'],
      view.approvals.map((approval) => [
        String(approval.turn),
        approval.callId,
        approval.toolName,
        approval.state,
        approval.decidedBy ?? '',
        approval.reason ?? '',
      ]),
    ),
    ...section(
      'projections',
      ['TURN', 'CALL', 'TOOL', 'TRUNCATED', 'BYTES', 'TRIGGER'],
      view.projections.map((projection) => [
        String(projection.turn),
        projection.callId,
        projection.toolName,
        projection.truncated ? 'yes' : 'no',
        `${projection.originalBytes} -> ${projection.projectedBytes}`,
        projection.trigger,
      ]),
    ),
    ...section(
      'hashes',
      ['TURN', 'CALL', 'OF', 'SHA-256'],
      hashRows(view).map((row) => [String(row.turn), row.callId, row.label, row.sha256]),
    ),
  );
  return out.join('\n').trimEnd() + '\n';
}

/** A titled section of `runs show`: `title (count):`, then its table indented when it has rows. */
function section(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return rows.length === 0 ? [`${title} (0):`] : [`${title} (${rows.length}):`, indent(table(header, rows))];
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
