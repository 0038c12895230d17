import type { Span } from '@opentelemetry/api';
import { LlmAgentEvent } from '../runner/runner-events';
import { TELEMETRY_EVENTS, TELEMETRY_NAMES } from './telemetry-attributes';
import { errorCodeOf, heartbeatAttributes, safeJson, truncationAttributes } from './telemetry-values';

/** A runner event about one call, other than its end. */
export type ToolSpanEvent = Exclude<Extract<LlmAgentEvent, { callId: string }>, { type: 'tool_call_finished' }>;

/**
 * Records a call's event on its recording span: an attribute or a span event. Arguments and heartbeat messages only
 * when `recordContent` (they may quote data).
 */
export function recordToolSpanEvent(span: Span, event: ToolSpanEvent, recordContent: boolean): void {
  switch (event.type) {
    case 'tool_call_started':
      if (recordContent) span.setAttribute(TELEMETRY_NAMES.toolArguments, safeJson(event.arguments));
      return;
    case 'tool_call_refused':
      span.setAttribute(TELEMETRY_NAMES.refused, true);
      return;
    case 'tool_attempt_started':
      span.addEvent(TELEMETRY_EVENTS.attempt, { [TELEMETRY_NAMES.attempt]: event.attempt });
      return;
    case 'tool_retry':
      span.addEvent(TELEMETRY_EVENTS.retry, {
        [TELEMETRY_NAMES.attempt]: event.attempt,
        'wuwe.retry.delay_ms': event.delayMs,
        [TELEMETRY_NAMES.errorType]: errorCodeOf(event.failure),
      });
      return;
    case 'tool_timeout':
      span.addEvent(TELEMETRY_EVENTS.timeout, {
        [TELEMETRY_NAMES.attempt]: event.attempt,
        'wuwe.timeout.limit': event.limit,
        'wuwe.timeout.limit_ms': event.limitMs,
      });
      return;
    case 'tool_heartbeat':
      span.addEvent(TELEMETRY_EVENTS.heartbeat, heartbeatAttributes(event.attempt, event.progress, recordContent));
      return;
    case 'tool_late_result_discarded':
      span.addEvent(TELEMETRY_EVENTS.lateResult, {
        [TELEMETRY_NAMES.attempt]: event.attempt,
        'wuwe.outcome.ok': event.outcome.ok,
      });
      return;
    case 'tool_output_truncated':
      span.addEvent(TELEMETRY_EVENTS.truncated, truncationAttributes(event.report));
      return;
    case 'approval_requested':
      span.addEvent(TELEMETRY_EVENTS.approvalRequested);
      return;
    case 'approval_decided':
      span.setAttribute(TELEMETRY_NAMES.approvalDecision, event.approved ? 'approved' : 'denied');
      if (event.reason !== undefined) span.setAttribute(TELEMETRY_NAMES.approvalReason, event.reason);
      span.addEvent(TELEMETRY_EVENTS.approvalDecided, {
        [TELEMETRY_NAMES.approvalDecision]: event.approved ? 'approved' : 'denied',
      });
      return;
    case 'compensation_finished':
      span.addEvent(TELEMETRY_EVENTS.compensation, {
        [TELEMETRY_NAMES.attempt]: event.attempt,
        'wuwe.compensation.ok': event.ok,
      });
      return;
    case 'output_validation_warning':
      span.addEvent(TELEMETRY_EVENTS.validationWarning, { 'wuwe.validation.issues': event.issues.length });
      return;
    case 'hook_failed':
      span.addEvent(TELEMETRY_EVENTS.hookFailed, { 'wuwe.hook': event.hook });
      return;
  }
}
