import { textOfUserContent } from '../model/user-content';
import { AgentRunRecord } from '../durable';
import { runView } from './run-views';

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330}h1{font-size:18px}
.step{border-left:3px solid #5b6ee1;margin:12px 0;padding:4px 12px}.lanes{display:flex;gap:8px;flex-wrap:wrap}
.call{border:1px solid #ccd;border-radius:6px;padding:6px 10px;min-width:220px;flex:1}.ok{background:#eefaf0}
.error{background:#fdeeee}.unknown,.pending{background:#fff8e1}.meta{color:#667;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f6f8;padding:6px;margin:4px 0;max-height:320px;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #dde;padding:2px 8px;text-align:left}`;

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/**
 * A self-contained HTML page of a run (inline style, no script, no network): the model steps in order,
 * each turn's tool calls side by side with arguments, attempts, outcome, approval and projection, and the
 * full admitted outcome behind a disclosure. Every text from the record is escaped.
 */
export function renderRunHtml(record: AgentRunRecord): string {
  const view = runView(record);
  const calls = new Map(view.toolCalls.map((call) => [call.callId, call]));
  const approvals = new Map(view.approvals.map((approval) => [approval.callId, approval]));
  const projections = new Map(view.projections.map((projection) => [projection.callId, projection]));
  const stored = new Map(record.toolCalls.map((call) => [call.callId, call]));
  const body: string[] = [];
  let step = 0;
  for (const message of record.messages) {
    if (message.role === 'user') body.push(`<div class="step"><b>user</b><pre>${escapeHtml(textOfUserContent(message.content))}</pre></div>`);
    if (message.role !== 'assistant') continue;
    step++;
    const lanes = message.toolCalls.map((modelCall) => {
      const call = calls.get(modelCall.id);
      const approval = approvals.get(modelCall.id);
      const projection = projections.get(modelCall.id);
      const outcomeJson = stored.get(modelCall.id)?.outcomeJson;
      const parts = [
        `<b>${escapeHtml(modelCall.name)}</b> <span class="meta">${escapeHtml(modelCall.id)}</span>`,
        `<pre>${escapeHtml(JSON.stringify(call?.arguments ?? modelCall.arguments))}</pre>`,
        `<div>${escapeHtml(call ? `${call.outcome}${call.errorCode ? ` ${call.errorCode}` : ''} - ${call.recorded}, ${call.attempts} attempt(s)` : 'pending')}</div>`,
      ];
      if (approval)
        parts.push(
          `<div class="meta">approval: ${escapeHtml(`${approval.state}${approval.decidedBy ? ` by ${approval.decidedBy}` : ''}${approval.decidedAt ? ` at ${approval.decidedAt}` : ''}${approval.reason ? `: ${approval.reason}` : ''}`)}</div>`,
        );
      if (projection)
        parts.push(
          `<div class="meta">projection: ${projection.truncated ? 'truncated' : 'complete'}, ${projection.originalBytes} -> ${projection.projectedBytes} bytes (${escapeHtml(projection.trigger)})</div>`,
        );
      if (call?.toolMessage !== undefined) parts.push(`<div class="meta">model saw: ${escapeHtml(call.toolMessage)}</div>`);
      if (outcomeJson !== undefined) parts.push(`<details><summary>full admitted outcome</summary><pre>${escapeHtml(outcomeJson)}</pre></details>`);
      return `<div class="call ${escapeHtml(call?.outcome ?? 'pending')}">${parts.join('')}</div>`;
    });
    body.push(
      `<div class="step"><b>model step ${step}</b>${message.content ? `<pre>${escapeHtml(message.content)}</pre>` : ''}${lanes.length ? `<div class="lanes">${lanes.join('')}</div>` : ''}</div>`,
    );
  }
  const title = `wuwe run ${record.runId}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<table><tr><th>status</th><td>${escapeHtml(view.status)}</td></tr><tr><th>created</th><td>${escapeHtml(view.createdAt)}</td></tr>
<tr><th>updated</th><td>${escapeHtml(view.updatedAt)}</td></tr><tr><th>steps</th><td>${view.steps}</td></tr><tr><th>tool calls</th><td>${view.toolCalls.length}</td></tr></table>
${body.join('\n')}
</body></html>
`;
}
