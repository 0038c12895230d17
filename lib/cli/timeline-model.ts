import {
  AgentRunRecord,
  ApprovalRecord,
  ToolCallRecord,
  ToolOutputProjectionRecord,
} from '../durable/agent-run-record';
import { JournalEntry } from '../runner/run-event-journal';
import { LlmAgentEvent } from '../runner/runner-events';

/** The lanes of one tool call in the HTML timeline, in display order. */
export const TIMELINE_LANES = ['attempts', 'backoff', 'heartbeats', 'timeouts', 'approval', 'truncation'] as const;

/** One lane of the timeline. */
export type TimelineLane = (typeof TIMELINE_LANES)[number];

/** One thing drawn in a lane: a span (`endMs` after `startMs`) or a point. */
export interface TimelineMark {
  readonly startMs: number;
  readonly endMs: number;
  /** What the mark says, shown beside the lane and as its tooltip. */
  readonly label: string;
  /** A style variant (`late` for a late result in the timeouts lane, `error`/`ok` for attempts). */
  readonly variant?: string;
}

/** The marks of one tool call, by lane; `timed` says whether an event journal supplied the timing. */
export interface CallTimeline {
  /** The turn of the call (with `callId` it identifies the call: a model may reuse `call_0` every turn). */
  readonly turn: number;
  readonly callId: string;
  readonly lanes: Readonly<Record<TimelineLane, readonly TimelineMark[]>>;
  readonly timed: boolean;
  /** The projection, when the call's output was projected. */
  readonly projection?: ToolOutputProjectionRecord;
}

type TimelineCallEvent = Extract<LlmAgentEvent, { callId: string }>;

/** The key of a call in the map {@link callTimelines} returns: its turn and its id. */
export function timelineKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

/**
 * Works out the lanes of every call of a record. From the record alone: the call's span (started to
 * admitted, with its attempt count), approvals (who, when), truncations (original and projected sizes)
 * and a timeout outcome. With a journal of the run's events (see `RunEventJournal`): each attempt,
 * the backoff before each retry, heartbeats, each timeout and each late result discarded, at their times.
 * Calls are keyed by {@link timelineKey} (turn and call id). A journal event without a turn (written before
 * events carried one) goes to the earliest turn of a recorded call with its id. The events of `record`'s run are
 * read whether the run reported them itself or its parent did (`agent_event`), so a root's journal times its tree.
 */
export function callTimelines(
  record: AgentRunRecord,
  journal: readonly JournalEntry[] = [],
): Map<string, CallTimeline> {
  const calls = new Map<string, { turn: number; callId: string }>();
  const note = (turn: number, callId: string): void => void calls.set(timelineKey(turn, callId), { turn, callId });
  for (const call of record.toolCalls) note(call.turn, call.callId);
  for (const approval of record.approvals) note(approval.turn, approval.callId);
  const byCall = new Map<string, { atMs: number; event: TimelineCallEvent }[]>();
  for (const entry of journal) {
    // A child run's event in its root's journal counts for the child's record.
    const event = entry.event.type === 'agent_event' ? entry.event.event : entry.event;
    if (!('callId' in event) || event.runId !== record.runId) continue;
    const written: unknown = (event as { readonly turn?: unknown }).turn;
    const turn = typeof written === 'number' ? written : earliestTurn(record, event.callId);
    const key = timelineKey(turn, event.callId);
    if (!calls.has(key)) note(turn, event.callId);
    const list = byCall.get(key) ?? [];
    list.push({ atMs: entry.atMs, event });
    byCall.set(key, list);
  }
  const timelines = new Map<string, CallTimeline>();
  for (const [key, { turn, callId }] of calls) {
    const same = (candidate: { readonly turn: number; readonly callId: string }): boolean =>
      candidate.turn === turn && candidate.callId === callId;
    const stored = record.toolCalls.find(same);
    const approval = record.approvals.find(same);
    const projection = record.toolOutputProjections.find(same);
    const events = byCall.get(key) ?? [];
    const lanes = events.length > 0 ? lanesFromJournal(events) : lanesFromRecord(stored);
    if (approval !== undefined) lanes.approval = [approvalMark(approval, events)];
    if (projection?.report.truncated === true) lanes.truncation = [projectionMark(projection, events)];
    timelines.set(key, {
      turn,
      callId,
      lanes,
      timed: events.length > 0,
      ...(projection === undefined ? {} : { projection }),
    });
  }
  return timelines;
}

/** The earliest turn of a recorded call with this id (1 when none is recorded). */
function earliestTurn(record: AgentRunRecord, callId: string): number {
  const turns = record.toolCalls.filter((call) => call.callId === callId).map((call) => call.turn);
  return turns.length === 0 ? 1 : Math.min(...turns);
}

function emptyLanes(): Record<TimelineLane, TimelineMark[]> {
  return { attempts: [], backoff: [], heartbeats: [], timeouts: [], approval: [], truncation: [] };
}

function ms(iso: string | undefined): number | undefined {
  const value = iso === undefined ? NaN : Date.parse(iso);
  return Number.isFinite(value) ? value : undefined;
}

function lanesFromRecord(stored: ToolCallRecord | undefined): Record<TimelineLane, TimelineMark[]> {
  const lanes = emptyLanes();
  const start = ms(stored?.startedAt);
  if (stored === undefined || start === undefined) return lanes;
  const end = ms(stored.admittedAt) ?? start;
  const ok = stored.outcome?.ok;
  lanes.attempts.push({
    startMs: start,
    endMs: end,
    label: `${stored.attempts} attempt(s), ${stored.status}${ok === undefined ? '' : ok ? ', ok' : `, ${stored.outcome?.error?.code ?? 'error'}`}`,
    variant: ok === false ? 'error' : 'ok',
  });
  if (stored.outcome?.error?.code === 'timeout') lanes.timeouts.push({ startMs: end, endMs: end, label: 'timed out' });
  return lanes;
}

function lanesFromJournal(
  events: readonly { atMs: number; event: TimelineCallEvent }[],
): Record<TimelineLane, TimelineMark[]> {
  const lanes = emptyLanes();
  let open: { attempt: number; startMs: number } | undefined;
  const close = (atMs: number, label: string, variant: string): void => {
    if (open === undefined) return;
    lanes.attempts.push({ startMs: open.startMs, endMs: atMs, label: `attempt ${open.attempt}: ${label}`, variant });
    open = undefined;
  };
  for (const { atMs, event } of events) {
    switch (event.type) {
      case 'tool_attempt_started':
        close(atMs, 'superseded', 'error');
        open = { attempt: event.attempt, startMs: atMs };
        break;
      case 'tool_retry':
        close(atMs, event.failure.ok ? 'ok' : (event.failure.error?.code ?? 'error'), 'error');
        lanes.backoff.push({
          startMs: atMs,
          endMs: atMs + event.delayMs,
          label: `retry after ${Math.round(event.delayMs)} ms (attempt ${event.attempt} failed: ${event.failure.ok ? 'ok' : (event.failure.error?.code ?? 'error')})`,
        });
        break;
      case 'tool_timeout':
        close(atMs, `${event.limit} passed`, 'error');
        lanes.timeouts.push({
          startMs: atMs,
          endMs: atMs,
          label: `attempt ${event.attempt}: ${event.limit} of ${event.limitMs} ms passed`,
        });
        break;
      case 'tool_late_result_discarded':
        lanes.timeouts.push({
          startMs: atMs,
          endMs: atMs,
          label: `attempt ${event.attempt}: late result discarded (${event.outcome.ok ? 'ok' : (event.outcome.error?.code ?? 'error')})`,
          variant: 'late',
        });
        break;
      case 'tool_heartbeat': {
        const fraction = event.progress?.fraction;
        const text = [fraction === undefined ? undefined : `${Math.round(fraction * 100)}%`, event.progress?.message]
          .filter((part) => part !== undefined)
          .join(' ');
        lanes.heartbeats.push({ startMs: atMs, endMs: atMs, label: text === '' ? 'heartbeat' : text });
        break;
      }
      case 'tool_call_finished':
        close(
          atMs,
          event.outcome.ok ? 'ok' : (event.outcome.error?.code ?? 'error'),
          event.outcome.ok ? 'ok' : 'error',
        );
        break;
      default:
        break;
    }
  }
  return lanes;
}

function approvalMark(
  approval: ApprovalRecord,
  events: readonly { atMs: number; event: TimelineCallEvent }[],
): TimelineMark {
  const requested =
    events.find((entry) => entry.event.type === 'approval_requested')?.atMs ?? ms(approval.requestedAt) ?? 0;
  const decided =
    events.find((entry) => entry.event.type === 'approval_decided')?.atMs ?? ms(approval.decidedAt) ?? requested;
  const who = approval.decidedBy === undefined ? '' : ` by ${approval.decidedBy}`;
  const when = approval.decidedAt === undefined ? ` (requested ${approval.requestedAt})` : ` at ${approval.decidedAt}`;
  return {
    startMs: requested,
    endMs: Math.max(requested, decided),
    label: `${approval.state}${who}${when}${approval.reason === undefined ? '' : `: ${approval.reason}`}`,
    variant: approval.state,
  };
}

function projectionMark(
  projection: ToolOutputProjectionRecord,
  events: readonly { atMs: number; event: TimelineCallEvent }[],
): TimelineMark {
  const at =
    events.find((entry) => entry.event.type === 'tool_output_truncated')?.atMs ??
    events.find((entry) => entry.event.type === 'tool_call_finished')?.atMs ??
    ms(projection.recordedAt) ??
    0;
  const { truncated, originalBytes, projectedBytes, trigger } = projection.report;
  return {
    startMs: at,
    endMs: at,
    label: `${truncated ? 'truncated' : 'complete'}: ${originalBytes} -> ${projectedBytes} bytes (${String(trigger)})`,
    variant: truncated ? 'truncated' : 'complete',
  };
}
