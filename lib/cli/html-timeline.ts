import { textOfUserContent } from '../model/user-content';
import { AgentRunRecord } from '../durable/agent-run-record';
import { JournalEntry } from '../runner/run-event-journal';
import type { RecordChain } from '../durable/chain/record-chain';
import { HashRow, hashRows } from './record-hash-views';
import { runView, RunView, ToolCallView } from './run-views';
import { CallTimeline, callTimelines, TIMELINE_LANES, TimelineLane, TimelineMark, timelineKey } from './timeline-model';
import { escapeTerminalText } from './terminal-text';
import type { RunTree } from '../agents/run-tree';

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}h1{font-size:18px}
.step{border-left:3px solid #5b6ee1;margin:12px 0;padding:4px 12px}.axis{color:#667;font-size:12px}
.call{border:1px solid #ccd;border-radius:6px;padding:6px 10px;margin:8px 0}.ok{background:#f3fbf4}
.error{background:#fdf1f1}.unknown,.pending{background:#fff8e1}.meta{color:#556;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f6f8;padding:6px;margin:4px 0;max-height:320px;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #dde;padding:2px 8px;text-align:left}
.lane{display:flex;align-items:center;gap:8px;margin:2px 0;font-size:12px}.lane-name{width:80px;color:#445;flex:none}
.track{position:relative;flex:1;height:14px;background:#eef0f4;border-radius:3px;min-width:200px}
.lane-text{flex:0 0 45%;color:#223;overflow-wrap:anywhere}
.mark{position:absolute;top:1px;height:12px;min-width:4px;border-radius:2px;background:#5b6ee1}
.mark.point{width:4px;margin-left:-2px}
.lane-attempts .mark{background:#5b6ee1}.lane-attempts .mark-error{background:#d9534f}
.lane-backoff .mark{background:repeating-linear-gradient(45deg,#f0ad4e 0 4px,#fbe3bd 4px 8px)}
.lane-heartbeats .mark{background:#3c9d5d}.lane-timeouts .mark{background:#c9302c}.lane-timeouts .mark-late{background:#8e44ad}
.lane-approval .mark{background:#17a2b8}.lane-approval .mark-denied{background:#e67e22}
.lane-truncation .mark{background:#6c757d}.note{color:#778;font-size:12px;font-style:italic}
.legend span{display:inline-block;margin-right:12px}table.hashes{font-size:12px;margin:4px 0}
table.hashes th{font-weight:normal;color:#556}
.child-run{border-left:3px dashed #8e44ad;margin:8px 0 4px 8px;padding:2px 0 2px 10px}.child-head{font-size:13px}code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}`;

/**
 * Escapes text for HTML element content and attribute values; terminal controls, bidi characters and lone
 * surrogates are shown as their visible escapes (`\x1b`, `\u202e`), so the page hides nothing and is safe
 * to print to a terminal too.
 */
export function escapeHtml(text: string): string {
  return escapeTerminalText(text).replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/** Options of {@link renderRunHtml}. */
export interface RunHtmlOptions {
  /**
   * The run's events with their times (a `RunEventJournal`): draws attempts, backoff, heartbeats, timeouts and late
   * results. @default none
   */
  readonly journal?: readonly JournalEntry[];
  /**
   * The run's record chain (`RunStore.exportRun`): shows its head and entry count, so the page can be matched to
   * an anchored head. @default none
   */
  readonly chain?: RecordChain;
  /**
   * The run's agent tree (`loadRunTree` of `wuwe/agents`): each child run is drawn under the call that started it,
   * recursively. @default none: the run alone
   */
  readonly tree?: RunTree;
}

/**
 * A self-contained HTML page of a run (inline style, no script, no network): the model steps in order,
 * each step's tool calls with arguments, outcome, and lanes on the step's time axis: attempts, backoff
 * before retries, heartbeats, timeouts and late results, approval (who, when), truncation (original and
 * projected sizes, with the full admitted outcome behind a disclosure), and the call's hashes: the arguments
 * that ran, the admitted outcome, the Tool message text and content the model saw, an approval's presented, decided
 * and executed arguments. With the chain, the page shows its head. Without a journal, the lanes that need event
 * times say so. Every text from the record is escaped.
 */
export function renderRunHtml(record: AgentRunRecord, options: RunHtmlOptions = {}): string {
  const view = runView(record, options.chain);
  const body = stepsHtml(view, record, options.journal, options.tree);
  const title = `wuwe run ${record.runId}`;
  const timing =
    options.journal === undefined
      ? '<p class="note">no event journal given: backoff, heartbeats, timeouts and late results are drawn only from a journal (wuwe export --events)</p>'
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<table><tr><th>status</th><td>${escapeHtml(view.status)}</td></tr><tr><th>created</th><td>${escapeHtml(view.createdAt)}</td></tr>
<tr><th>updated</th><td>${escapeHtml(view.updatedAt)}</td></tr><tr><th>steps</th><td>${view.steps}</td></tr><tr><th>tool calls</th><td>${view.toolCalls.length}</td></tr>${chainRowHtml(view)}${guardrailRowHtml(view)}</table>
<p class="legend">${TIMELINE_LANES.map((lane) => `<span class="lane-${lane}"><span class="mark point" style="position:static;display:inline-block"></span> ${lane}</span>`).join('')}</p>
${timing}
${body}
</body></html>
`;
}

/**
 * The steps of a run: each user message and model step, each step's calls with their lanes and hashes, and under a
 * call that started a child run (from `tree`), that run's steps, nested the same way.
 */
function stepsHtml(
  view: RunView,
  record: AgentRunRecord,
  journal: readonly JournalEntry[] | undefined,
  tree: RunTree | undefined,
  anchorPrefix = 'outcome-',
): string {
  const hashes = hashRows(view);
  // A call is its turn and id: a model may reuse `call_0` every turn. The turn is the step (assistant message ordinal).
  const calls = new Map(view.toolCalls.map((call) => [timelineKey(call.turn, call.callId), call]));
  const timelines = callTimelines(record, journal);
  const stored = new Map(record.toolCalls.map((call) => [timelineKey(call.turn, call.callId), call]));
  const body: string[] = [];
  let step = 0;
  for (const message of record.messages) {
    if (message.role === 'user')
      body.push(`<div class="step"><b>user</b><pre>${escapeHtml(textOfUserContent(message.content))}</pre></div>`);
    if (message.role !== 'assistant') continue;
    step++;
    const turn = step;
    const stepTimelines = message.toolCalls.map((modelCall) => timelines.get(timelineKey(turn, modelCall.id)));
    const axis = axisOf(stepTimelines);
    const lanes = message.toolCalls.map((modelCall, index) => {
      const call = calls.get(timelineKey(turn, modelCall.id));
      const timeline = stepTimelines[index];
      const outcomeJson = stored.get(timelineKey(turn, modelCall.id))?.outcomeJson;
      const anchor = `${anchorPrefix}${turn}-${modelCall.id}`;
      const parts = [
        `<b>${escapeHtml(modelCall.name)}</b> <span class="meta">${escapeHtml(modelCall.id)}</span>`,
        `<pre>${escapeHtml(JSON.stringify(call?.arguments ?? modelCall.arguments))}</pre>`,
        `<div>${escapeHtml(summaryOf(call))}</div>`,
        timeline === undefined ? '' : lanesHtml(timeline, axis, outcomeJson === undefined ? undefined : anchor),
      ];
      if (call?.toolMessage !== undefined)
        parts.push(`<div class="meta">model saw: ${escapeHtml(call.toolMessage)}</div>`);
      parts.push(hashesHtml(hashes.filter((row) => row.turn === turn && row.callId === modelCall.id)));
      if (outcomeJson !== undefined)
        parts.push(
          `<details><summary>full admitted outcome (${Buffer.byteLength(outcomeJson)} bytes)</summary><pre id="${escapeHtml(anchor)}">${escapeHtml(outcomeJson)}</pre></details>`,
        );
      for (const child of tree?.children ?? [])
        if (child.parentCallId === modelCall.id && (child.parentTurn ?? turn) === turn)
          parts.push(childRunHtml(child, journal, `${anchorPrefix}${turn}-${modelCall.id}-`));
      return `<div class="call ${escapeHtml(call?.outcome ?? 'pending')}" data-call="${escapeHtml(modelCall.id)}" data-turn="${turn}">${parts.join('')}</div>`;
    });
    const axisText =
      axis === undefined
        ? ''
        : `<div class="axis">time axis: ${new Date(axis.from).toISOString()} + ${Math.round(axis.to - axis.from)} ms</div>`;
    body.push(
      `<div class="step"><b>model step ${step}</b>${message.content ? `<pre>${escapeHtml(message.content)}</pre>` : ''}${lanes.length ? axisText + lanes.join('') : ''}</div>`,
    );
  }
  return body.join('\n');
}

/** A child run nested under the call that started it: its id, agent, status and pending approvals, then its steps. */
function childRunHtml(child: RunTree, journal: readonly JournalEntry[] | undefined, anchorPrefix: string): string {
  const view = runView(child.record);
  const pending = view.approvals.filter((approval) => approval.state === 'pending');
  const waiting =
    pending.length === 0
      ? ''
      : `, waits for approval of ${pending.map((approval) => `${escapeHtml(approval.toolName)} <span class="meta">${escapeHtml(approval.callId)}</span>`).join(', ')}`;
  const head = `<div class="child-head"><b>child run</b> <code>${escapeHtml(view.runId)}</code> (agent ${escapeHtml(child.agent ?? '?')}): ${escapeHtml(view.status)}, ${view.steps} step(s)${waiting}</div>`;
  return `<div class="child-run" data-run="${escapeHtml(view.runId)}" data-status="${escapeHtml(view.status)}">${head}${stepsHtml(view, child.record, journal, child, anchorPrefix)}</div>`;
}

/** The header row of the guardrail notice, when a guardrail stopped the run. */
function guardrailRowHtml(view: RunView): string {
  return view.guardrail === undefined ? '' : `<tr><th>guardrail</th><td>${escapeHtml(view.guardrail.text)}</td></tr>`;
}

/** The header row of the record chain, when the page was rendered with it. */
function chainRowHtml(view: RunView): string {
  if (view.chain === undefined) return '';
  const { entries, head, migratedEntries } = view.chain;
  const shown = head === undefined ? '(none)' : `<code>${escapeHtml(head)}</code>`;
  return `\n<tr><th>record chain</th><td>${entries} entries, head ${shown}, ${migratedEntries} from migration</td></tr>`;
}

/** A call's hashes (SHA-256, lowercase hex), one row each, keyed by `data-hash`. */
function hashesHtml(rows: readonly HashRow[]): string {
  if (rows.length === 0) return '';
  const cells = rows.map(
    (row) =>
      `<tr data-hash="${escapeHtml(row.key)}"><th>${escapeHtml(row.label)}</th><td><code>${escapeHtml(row.sha256)}</code></td></tr>`,
  );
  return `<table class="hashes" title="SHA-256, lowercase hex">${cells.join('')}</table>`;
}

function summaryOf(call: ToolCallView | undefined): string {
  if (call === undefined) return 'pending';
  return `${call.outcome}${call.errorCode ? ` ${call.errorCode}` : ''} - ${call.recorded}, ${call.attempts} attempt(s)`;
}

interface Axis {
  readonly from: number;
  readonly to: number;
}

/** The time range every mark of a step falls in (at least 1 ms wide). */
function axisOf(timelines: readonly (CallTimeline | undefined)[]): Axis | undefined {
  const marks = timelines.flatMap((timeline) =>
    timeline === undefined ? [] : TIMELINE_LANES.flatMap((lane) => timeline.lanes[lane]),
  );
  if (marks.length === 0) return undefined;
  const from = Math.min(...marks.map((mark) => mark.startMs));
  const to = Math.max(...marks.map((mark) => mark.endMs));
  return { from, to: Math.max(to, from + 1) };
}

function lanesHtml(timeline: CallTimeline, axis: Axis | undefined, outcomeAnchor: string | undefined): string {
  const rows = TIMELINE_LANES.filter((lane) => timeline.lanes[lane].length > 0).map((lane) => {
    const link =
      lane === 'truncation' && outcomeAnchor !== undefined
        ? ` <a href="#${escapeHtml(outcomeAnchor)}">see the full admitted outcome</a>`
        : '';
    return laneHtml(lane, timeline.lanes[lane], axis, link);
  });
  if (!timeline.timed)
    rows.push('<div class="note">attempt timing, backoff and heartbeats need an event journal</div>');
  return `<div class="lanes">${rows.join('')}</div>`;
}

function laneHtml(lane: TimelineLane, marks: readonly TimelineMark[], axis: Axis | undefined, extra: string): string {
  const span = axis === undefined ? 1 : axis.to - axis.from;
  const from = axis?.from ?? 0;
  const drawn = marks.map((mark) => {
    const left = Math.min(100, Math.max(0, ((mark.startMs - from) / span) * 100));
    const width = Math.min(100 - left, ((mark.endMs - mark.startMs) / span) * 100);
    const point = mark.endMs <= mark.startMs;
    const style = point ? `left:${left.toFixed(2)}%` : `left:${left.toFixed(2)}%;width:${width.toFixed(2)}%`;
    return `<span class="mark${point ? ' point' : ''}${mark.variant === undefined ? '' : ` mark-${escapeHtml(mark.variant)}`}" style="${style}" title="${escapeHtml(mark.label)}"></span>`;
  });
  const text = marks.map((mark) => escapeHtml(mark.label)).join('; ');
  return `<div class="lane lane-${lane}" data-lane="${lane}"><span class="lane-name">${lane}</span><div class="track">${drawn.join('')}</div><span class="lane-text">${text}${extra}</span></div>`;
}
