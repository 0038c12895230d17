import { LlmAgentEvent } from '../runner/runner-events';
import { ToolOutcome } from '../outcome/tool-outcome';
import { shorten } from './run-views';

function outcomeText(outcome: ToolOutcome): string {
  if (!outcome.ok) return `error ${outcome.error?.code ?? ''}: ${shorten(outcome.error?.message ?? '', 80)}`;
  return `ok: ${shorten(outcome.data !== undefined ? JSON.stringify(outcome.data) : (outcome.text ?? ''), 80)}`;
}

/**
 * One progress line for a runner event, or undefined for events the progress display leaves out; a child run's event
 * is its own line behind its agent path (`[billing > ledger] [tool] ...`).
 */
export function formatProgress(event: LlmAgentEvent): string | undefined {
  switch (event.type) {
    case 'agent_event': {
      const line = formatProgress(event.event);
      return line === undefined ? undefined : `[${event.agent.join(' > ')}] ${line}`;
    }
    case 'model_requested':
      return `[model] request ${event.step}`;
    case 'model_responded': {
      const calls = event.response.toolCalls.map((call) => call.name).join(', ');
      return calls ? `[model] asks for: ${calls}` : `[model] answers: ${shorten(event.response.text)}`;
    }
    case 'tool_call_started':
      return `[tool] ${event.toolName} ${event.callId} started`;
    case 'tool_call_refused':
      return `[tool] ${event.toolName} ${event.callId} refused: ${outcomeText(event.outcome)}`;
    case 'tool_retry':
      return `[tool] ${event.toolName} attempt ${event.attempt} failed; retrying in ${Math.round(event.delayMs)} ms`;
    case 'tool_timeout':
      return `[tool] ${event.toolName} passed its ${event.limitMs} ms ${event.limit}`;
    case 'tool_heartbeat':
      return `[tool] ${event.toolName} heartbeat${event.progress?.fraction === undefined ? '' : ` ${Math.round(event.progress.fraction * 100)}%`}`;
    case 'approval_requested':
      return `[approval] ${event.toolName} ${event.callId} needs approval`;
    case 'approval_decided':
      return `[approval] ${event.toolName} ${event.callId} ${event.approved ? 'approved' : 'denied'}`;
    case 'tool_call_finished':
      return `[tool] ${event.toolName} ${event.callId} finished after ${event.attempts} attempt(s): ${outcomeText(event.outcome)}`;
    case 'guardrail_decided':
      return event.verdict.kind === 'reject'
        ? `[guardrail] ${event.kind} '${event.name}'${event.call ? ` on ${event.call.toolName}` : ''} rejected: ${shorten(event.verdict.message, 80)}`
        : undefined;
    case 'guardrail_tripped':
      return `[guardrail] ${event.kind} '${event.name}'${event.call ? ` on ${event.call.toolName}` : ''} tripped: ${shorten(event.reason, 80)}`;
    case 'handoff':
      return `[handoff] ${event.from} -> ${event.to}`;
    case 'run_finished':
      return `[run] finished: ${event.stopReason}`;
    default:
      return undefined;
  }
}
