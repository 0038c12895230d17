/** Turns runner events into a readable trace, one line each. */
import { ToolOutcome } from '../../lib';
import type { LlmAgentEvent } from '../../lib';

function short(outcome: ToolOutcome): string {
  if (!outcome.ok)
    return `FAILED ${outcome.error?.code} (${outcome.error?.category}${outcome.error?.retryable ? ', retryable' : ''}): ${outcome.error?.message}`;
  const body = (outcome.data !== undefined ? JSON.stringify(outcome.data) : (outcome.text ?? '')).replace(/\s+/g, ' ');
  return `ok: ${body.length > 100 ? `${body.slice(0, 100)}... (${body.length} chars)` : body}`;
}

/** Formats one event, or returns undefined for events the trace leaves out. */
export function formatEvent(event: LlmAgentEvent): string | undefined {
  switch (event.type) {
    case 'model_requested':
      return `[model] request ${event.step}`;
    case 'model_responded': {
      const calls = event.response.toolCalls.map((call) => call.name).join(', ');
      return calls.length > 0 ? `[model] asks for: ${calls}` : `[model] answers: ${event.response.text}`;
    }
    case 'tool_call_started':
      return `[tool] ${event.toolName} ${JSON.stringify(event.arguments)}`;
    case 'tool_call_refused':
      return `[tool] ${event.toolName} refused before running -> ${short(event.outcome)}`;
    case 'tool_retry':
      return `[tool] ${event.toolName} attempt ${event.attempt} failed (${event.failure.error?.code}); retrying in ${Math.round(event.delayMs)} ms`;
    case 'tool_timeout':
      return `[tool] ${event.toolName} passed its ${event.limitMs} ms ${event.limit}; aborted, the run goes on`;
    case 'tool_late_result_discarded':
      return `[tool] ${event.toolName} finished late; result discarded`;
    case 'tool_heartbeat':
      return `[tool] ${event.toolName} heartbeat ${Math.round((event.progress?.fraction ?? 0) * 100)}% ${event.progress?.message ?? ''}`.trimEnd();
    case 'approval_requested':
      return `[approval] ${event.toolName} needs approval`;
    case 'approval_decided':
      return `[approval] ${event.toolName} ${event.approved ? 'approved' : 'denied'}${event.reason ? `: ${event.reason}` : ''}`;
    case 'tool_output_truncated': {
      const report = event.report as { originalBytes: number; projectedBytes: number; trigger: string };
      return `[projection] ${event.toolName} output cut from ${report.originalBytes} to ${report.projectedBytes} bytes (${report.trigger})`;
    }
    case 'tool_call_finished':
      if (event.attempts === 0) return undefined;
      return `[tool] ${event.toolName} done after ${event.attempts} attempt(s) in ${event.durationMs} ms -> ${short(event.outcome)}`;
    default:
      return undefined;
  }
}
