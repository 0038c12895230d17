import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, HrTime, Span, Tracer } from '@opentelemetry/api';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelResponse } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress } from '../providers/tool-invocation';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { LlmAgentEvent } from '../runner/runner-events';
import { TelemetryInstruments } from './telemetry-instruments';
import { TELEMETRY_EVENTS as E, TELEMETRY_NAMES as N } from './telemetry-attributes';
import { TelemetryOptions } from './telemetry-options';

/** What a tracker shares with every run of one telemetry. */
export interface TrackerShared {
  readonly api: typeof OtelApi;
  readonly tracer: Tracer;
  readonly instruments: TelemetryInstruments;
  readonly options: TelemetryOptions;
}

type ToolEvent = Extract<LlmAgentEvent, { callId: string }>;
type FinishedEvent = Extract<LlmAgentEvent, { type: 'tool_call_finished' }>;

/**
 * Turns the events of one run into spans and metrics: `invoke_agent` for the run, `chat` per model
 * step, `execute_tool` per call. Never throws into the runner (the runner drops observer errors anyway).
 *
 * Every span it starts ends: a call's span at its `tool_call_finished`, the others at `run_finished` or
 * {@link fail}. An event of a call whose span has ended (a result discarded after a timeout or an abort
 * comes when the tool returns, perhaps after the run) opens no span: its metrics are counted as usual
 * and it is counted in `wuwe.tool.late_events`. Only `tool_call_started` begins a call anew (a later
 * call under the same turn and id), and nothing opens a span once the run's span has ended.
 */
export class RunTracker {
  private run: Span | undefined;
  private runContext: Context | undefined;
  private chat: Span | undefined;
  /** Open `execute_tool` spans by {@link callKey} (turn and call id: a model may reuse an id every turn). */
  private readonly tools = new Map<string, Span>();
  /** The {@link callKey}s of calls whose span has ended. */
  private readonly endedTools = new Set<string>();
  /** True once the run's span has ended: no span starts after it. */
  private closed = false;

  constructor(private readonly shared: TrackerShared) {}

  /** Handles one runner event. */
  onEvent(event: LlmAgentEvent): void {
    switch (event.type) {
      case 'run_started':
        return this.startRun(event.runId);
      case 'model_requested':
        return this.startChat(event.step);
      case 'model_responded':
        return this.finishChat(event.response);
      case 'run_finished':
        return this.finishRun(event.stopReason);
      default:
        return this.onToolEvent(event);
    }
  }

  /** Contract attributes of a call with a validated request (from `onToolResult`). */
  onToolResult(outcome: ToolOutcome, descriptor: ToolDescriptor, callId: string, turn: number): void {
    const span = this.tools.get(callKey(turn, callId));
    if (span === undefined || !span.isRecording()) return;
    span.setAttribute(N.sideEffect, descriptor.sideEffect);
    span.setAttribute(N.idempotency, descriptor.idempotency);
    if (this.shared.options.recordContent === true) span.setAttribute(N.toolResult, safeJson(outcome));
  }

  /** The projection report of a call (from `onToolOutputProjection`), on its span. */
  onProjection(report: ToolOutputProjectionReport, callId: string, turn: number): void {
    const span = this.tools.get(callKey(turn, callId));
    if (span === undefined || !span.isRecording()) return;
    span.setAttributes({
      [N.projectionTruncated]: report.truncated,
      [N.projectionOriginalBytes]: report.originalBytes,
      [N.projectionProjectedBytes]: report.projectedBytes,
      [N.projectionOriginalTokens]: report.originalTokens,
      [N.projectionProjectedTokens]: report.projectedTokens,
    });
    if (report.trigger !== null) span.setAttribute(N.projectionTrigger, report.trigger);
  }

  /** Ends every open span with an error status: the run threw or rejected. */
  fail(error: unknown): void {
    const type = errorTypeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    for (const span of [...this.tools.values(), this.chat, this.run]) {
      if (span === undefined) continue;
      span.setAttribute(N.errorType, type);
      span.setStatus({ code: this.shared.api.SpanStatusCode.ERROR, message });
      if (error instanceof Error) span.recordException(error);
      span.end();
    }
    this.closeRun();
  }

  /** Forgets the ended spans; from now on no span starts. */
  private closeRun(): void {
    for (const key of this.tools.keys()) this.endedTools.add(key);
    this.tools.clear();
    this.chat = undefined;
    this.run = undefined;
    this.closed = true;
  }

  private startRun(runId: string): void {
    const { api, tracer, options } = this.shared;
    const attributes: Attributes = { [N.operationName]: 'invoke_agent', [N.runId]: runId, [N.conversationId]: runId };
    if (options.agentName !== undefined) attributes[N.agentName] = options.agentName;
    const name = options.agentName === undefined ? 'invoke_agent' : `invoke_agent ${options.agentName}`;
    this.run = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes }, api.context.active());
    this.runContext = api.trace.setSpan(api.context.active(), this.run);
  }

  private startChat(step: number): void {
    const { api, tracer, options } = this.shared;
    const attributes: Attributes = { [N.operationName]: 'chat', [N.step]: step };
    if (options.requestModel !== undefined) attributes[N.requestModel] = options.requestModel;
    if (options.providerName !== undefined) attributes[N.providerName] = options.providerName;
    const name = options.requestModel === undefined ? 'chat' : `chat ${options.requestModel}`;
    this.chat?.end();
    if (this.closed) return;
    this.chat = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, this.parent());
  }

  private finishChat(response: ModelResponse): void {
    const span = this.chat;
    if (span === undefined) return;
    const { inputTokens, outputTokens } = response.usage;
    if (span.isRecording()) {
      span.setAttributes({
        [N.finishReasons]: [response.stopReason],
        [N.inputTokens]: inputTokens,
        [N.outputTokens]: outputTokens,
      });
      if (response.model !== undefined) {
        span.setAttribute(N.responseModel, response.model);
        if (this.shared.options.requestModel === undefined) span.setAttribute(N.requestModel, response.model);
      }
      if (this.shared.options.recordContent === true)
        span.setAttribute(
          N.outputMessages,
          safeJson([{ role: 'assistant', text: response.text, toolCalls: response.toolCalls }]),
        );
    }
    const model = response.model === undefined ? {} : { [N.responseModel]: response.model };
    this.shared.instruments.tokens.add(inputTokens, { ...model, [N.tokenType]: 'input' });
    this.shared.instruments.tokens.add(outputTokens, { ...model, [N.tokenType]: 'output' });
    span.end();
    this.chat = undefined;
  }

  private finishRun(stopReason: string): void {
    const span = this.run;
    for (const tool of this.tools.values()) tool.end();
    this.chat?.end();
    this.closeRun();
    if (span === undefined) return;
    span.setAttribute(N.stopReason, stopReason);
    span.end();
  }

  private onToolEvent(event: ToolEvent): void {
    // Metrics are counted whether or not the trace is sampled; span events and attributes only on a recorded span.
    const { instruments } = this.shared;
    if (event.type === 'tool_retry')
      instruments.retries.add(1, { [N.toolName]: event.toolName, [N.errorType]: errorCodeOf(event.failure) });
    else if (event.type === 'tool_timeout')
      instruments.timeouts.add(1, { [N.toolName]: event.toolName, 'wuwe.timeout.limit': event.limit });
    else if (event.type === 'tool_output_truncated') instruments.truncations.add(1, { [N.toolName]: event.toolName });
    const span = this.toolSpan(event);
    if (span === undefined) {
      if (event.type === 'tool_call_finished') this.recordDuration(event);
      instruments.lateEvents.add(1, { [N.event]: event.type, [N.toolName]: event.toolName });
      return;
    }
    if (event.type === 'tool_call_finished') return this.finishTool(span, event);
    if (!span.isRecording()) return;
    switch (event.type) {
      case 'tool_call_started':
        if (this.shared.options.recordContent === true) span.setAttribute(N.toolArguments, safeJson(event.arguments));
        return;
      case 'tool_call_refused':
        span.setAttribute(N.refused, true);
        return;
      case 'tool_attempt_started':
        span.addEvent(E.attempt, { [N.attempt]: event.attempt });
        return;
      case 'tool_retry':
        span.addEvent(E.retry, {
          [N.attempt]: event.attempt,
          'wuwe.retry.delay_ms': event.delayMs,
          [N.errorType]: errorCodeOf(event.failure),
        });
        return;
      case 'tool_timeout':
        span.addEvent(E.timeout, {
          [N.attempt]: event.attempt,
          'wuwe.timeout.limit': event.limit,
          'wuwe.timeout.limit_ms': event.limitMs,
        });
        return;
      case 'tool_heartbeat':
        span.addEvent(
          E.heartbeat,
          heartbeatAttributes(event.attempt, event.progress, this.shared.options.recordContent === true),
        );
        return;
      case 'tool_late_result_discarded':
        span.addEvent(E.lateResult, { [N.attempt]: event.attempt, 'wuwe.outcome.ok': event.outcome.ok });
        return;
      case 'tool_output_truncated':
        span.addEvent(E.truncated, truncationAttributes(event.report));
        return;
      case 'approval_requested':
        span.addEvent(E.approvalRequested);
        return;
      case 'approval_decided':
        span.setAttribute(N.approvalDecision, event.approved ? 'approved' : 'denied');
        if (event.reason !== undefined) span.setAttribute(N.approvalReason, event.reason);
        span.addEvent(E.approvalDecided, { [N.approvalDecision]: event.approved ? 'approved' : 'denied' });
        return;
      case 'compensation_finished':
        span.addEvent(E.compensation, { [N.attempt]: event.attempt, 'wuwe.compensation.ok': event.ok });
        return;
      case 'output_validation_warning':
        span.addEvent(E.validationWarning, { 'wuwe.validation.issues': event.issues.length });
        return;
      case 'hook_failed':
        span.addEvent(E.hookFailed, { 'wuwe.hook': event.hook });
        return;
    }
  }

  /** The call's duration metric, by tool and outcome code. */
  private recordDuration(event: FinishedEvent): void {
    const errorType = event.outcome.ok ? undefined : errorCodeOf(event.outcome);
    const metricAttributes: Attributes =
      errorType === undefined
        ? { [N.toolName]: event.toolName }
        : { [N.toolName]: event.toolName, [N.errorType]: errorType };
    this.shared.instruments.toolDuration.record(event.durationMs / 1000, metricAttributes);
  }

  private finishTool(span: Span, event: FinishedEvent): void {
    this.recordDuration(event);
    const errorType = event.outcome.ok ? undefined : errorCodeOf(event.outcome);
    const key = callKey(event.turn, event.callId);
    this.endedTools.add(key);
    if (!span.isRecording()) {
      this.tools.delete(key);
      span.end();
      return;
    }
    span.setAttribute(N.attempts, event.attempts);
    if (errorType !== undefined) {
      span.setAttribute(N.errorType, errorType);
      span.setStatus({ code: this.shared.api.SpanStatusCode.ERROR, message: event.outcome.error?.message });
    }
    // The projection of this outcome is reported right after this event, in the same synchronous
    // step: the span ends a microtask later (at the time of this event) so it carries the report.
    const endTime: HrTime = hrNow();
    queueMicrotask(() => {
      if (this.tools.get(key) !== span) return;
      this.tools.delete(key);
      span.end(endTime);
    });
  }

  /**
   * The span of a call, started at its first event; `undefined` once the call's span (or the run's) has
   * ended, unless `tool_call_started` begins a new call under the same key.
   */
  private toolSpan(event: ToolEvent): Span | undefined {
    const key = callKey(event.turn, event.callId);
    let span = this.tools.get(key);
    if (span === undefined) {
      if (this.closed || (this.endedTools.has(key) && event.type !== 'tool_call_started')) return undefined;
      this.endedTools.delete(key);
      const { api, tracer } = this.shared;
      const attributes: Attributes = {
        [N.operationName]: 'execute_tool',
        [N.toolName]: event.toolName,
        [N.toolCallId]: event.callId,
        [N.toolCallTurn]: event.turn,
        [N.toolType]: 'function',
      };
      span = tracer.startSpan(
        `execute_tool ${event.toolName}`,
        { kind: api.SpanKind.INTERNAL, attributes },
        this.parent(),
      );
      this.tools.set(key, span);
    }
    return span;
  }

  private parent(): Context {
    return this.runContext ?? this.shared.api.context.active();
  }
}

/** The key of a call within a run: its turn and its id. */
function callKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

function errorCodeOf(outcome: ToolOutcome): string {
  return outcome.error?.code ?? 'tool_error';
}

function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string')
    return (error as { code: string }).code;
  return error instanceof Error ? error.name : '_OTHER';
}

/** A heartbeat's fraction; its message only when content is recorded (it may quote data). */
function heartbeatAttributes(
  attempt: number,
  progress: HeartbeatProgress | undefined,
  recordContent: boolean,
): Attributes {
  const attributes: Attributes = { [N.attempt]: attempt };
  if (typeof progress?.fraction === 'number') attributes['wuwe.heartbeat.fraction'] = progress.fraction;
  if (recordContent && typeof progress?.message === 'string') attributes['wuwe.heartbeat.message'] = progress.message;
  return attributes;
}

function truncationAttributes(report: unknown): Attributes {
  const r = report as Partial<ToolOutputProjectionReport>;
  const attributes: Attributes = {};
  if (typeof r.originalBytes === 'number') attributes[N.projectionOriginalBytes] = r.originalBytes;
  if (typeof r.projectedBytes === 'number') attributes[N.projectionProjectedBytes] = r.projectedBytes;
  if (typeof r.trigger === 'string') attributes[N.projectionTrigger] = r.trigger;
  return attributes;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserializable]"';
  }
}

function hrNow(): HrTime {
  const ms = performance.timeOrigin + performance.now();
  return [Math.floor(ms / 1000), Math.floor((ms % 1000) * 1e6)];
}
