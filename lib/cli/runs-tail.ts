import { textOfUserContent } from '../model/user-content';
import { AgentRunRecord, AgentRunStatus } from '../durable/agent-run-record';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { loadRecord, StoreOptions, withStore } from './command-context';
import { parseMs } from './runs-commands';
import { progressLine } from './progress-line';
import { shorten } from './run-views';
import { escapeTerminalLine, terminalSafeJson } from './terminal-text';

/** Options of `wuwe runs tail`. */
export interface RunsTailOptions extends StoreOptions {
  readonly json?: boolean;
  /** Milliseconds between polls. @default 1000 */
  readonly interval?: string;
  /** Give up after this many milliseconds (exit 1). @default none */
  readonly timeout?: string;
}

/** One thing that happened in a run, as `runs tail` reports it. */
export interface TailEvent {
  readonly key: string;
  readonly type: 'status' | 'message' | 'call_started' | 'call_admitted' | 'approval_requested' | 'approval_decided';
  readonly text: string;
}

const FINAL: readonly AgentRunStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * `wuwe runs tail <run>`: prints what happens in a run as it happens, polling the store, until the run
 * reaches a final status. Exit 0 when it completed, 1 when it failed or was cancelled or `--timeout` passed.
 */
export async function runsTail(io: CliIo, runId: string, options: RunsTailOptions): Promise<number> {
  const interval = parseMs('--interval', options.interval, 1000);
  const timeout = options.timeout === undefined ? undefined : parseMs('--timeout', options.timeout, 0);
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return withStore(io, options, async (context) => {
    const seen = new Set<string>();
    let lastStatus: AgentRunStatus | undefined;
    const started = Date.now();
    const progress = progressLine(io, !context.json);
    for (;;) {
      const record = await loadRecord(context.store, runId);
      const events = tailEvents(record);
      if (record.status !== lastStatus) events.push(statusEvent(record));
      lastStatus = record.status;
      for (const event of events) {
        if (event.type !== 'status' && seen.has(event.key)) continue;
        seen.add(event.key);
        progress.clear();
        io.stdout(
          context.json
            ? `${terminalSafeJson({ runId, type: event.type, text: event.text })}\n`
            : `${escapeTerminalLine(event.text)}\n`,
        );
      }
      if (FINAL.includes(record.status)) {
        progress.clear();
        return record.status === 'completed' ? 0 : 1;
      }
      if (timeout !== undefined && Date.now() - started >= timeout) {
        progress.clear();
        throw new CliError('failed', `run '${runId}' is still ${record.status} after ${timeout} ms`);
      }
      progress.update(tailProgress(record, Date.now() - started));
      await sleep(interval);
    }
  });
}

/** The progress line while `runs tail` waits: status, counts and time waited. */
export function tailProgress(record: AgentRunRecord, waitedMs: number): string {
  const steps = record.messages.filter((message) => message.role === 'assistant').length;
  const open = record.toolCalls.filter((call) => call.status === 'started').length;
  const pending = record.approvals.filter((approval) => approval.state === 'pending').length;
  return `waiting on ${record.runId}: ${record.status}, ${steps} step(s), ${record.toolCalls.length} call(s) (${open} running), ${pending} approval(s) pending - ${Math.round(waitedMs / 1000)} s`;
}

/** The line saying the run's status. */
function statusEvent(record: AgentRunRecord): TailEvent {
  const hint = record.status === 'awaiting_approval' ? ` (decide with: wuwe approvals list --run ${record.runId})` : '';
  return { key: `status:${record.status}`, type: 'status', text: `[status] ${record.status}${hint}` };
}

/** Everything observable in a record except its status, each with a key that stays the same across polls. */
export function tailEvents(record: AgentRunRecord): TailEvent[] {
  const events: TailEvent[] = [];
  record.messages.forEach((message, index) => {
    const key = `message:${index}`;
    if (message.role === 'user')
      events.push({ key, type: 'message', text: `[user] ${shorten(textOfUserContent(message.content))}` });
    else if (message.role === 'assistant') {
      const calls = message.toolCalls.map((call) => call.name).join(', ');
      events.push({
        key,
        type: 'message',
        text: `[assistant] ${shorten(message.content)}${calls ? ` (asks for: ${calls})` : ''}`,
      });
    } else
      events.push({
        key,
        type: 'message',
        text: `[tool] ${message.toolName} ${message.isError ? 'error' : 'ok'}: ${shorten(message.content, 80)}`,
      });
  });
  for (const call of record.toolCalls) {
    events.push({
      key: `call:${call.turn}:${call.callId}:started`,
      type: 'call_started',
      text: `[call] ${call.toolName} ${call.callId} started`,
    });
    if (call.status === 'admitted')
      events.push({
        key: `call:${call.turn}:${call.callId}:admitted`,
        type: 'call_admitted',
        text: `[call] ${call.toolName} ${call.callId} admitted after ${call.attempts} attempt(s): ${call.outcome?.ok ? 'ok' : `error ${call.outcome?.error?.code ?? ''}`.trimEnd()}`,
      });
  }
  for (const approval of record.approvals) {
    events.push({
      key: `approval:${approval.turn}:${approval.callId}`,
      type: 'approval_requested',
      text: `[approval] ${approval.toolName} ${approval.callId} needs approval`,
    });
    if (approval.state !== 'pending')
      events.push({
        key: `approval:${approval.turn}:${approval.callId}:${approval.state}`,
        type: 'approval_decided',
        text: `[approval] ${approval.toolName} ${approval.callId} ${approval.state}${approval.decidedBy ? ` by ${approval.decidedBy}` : ''}${approval.reason ? `: ${approval.reason}` : ''}`,
      });
  }
  return events;
}
