import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelResponse } from '../model/model-types';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { LlmAgentEvent } from '../runner/runner-events';
import { TelemetryInstruments } from './telemetry-instruments';
import { TELEMETRY_NAMES } from './telemetry-attributes';
import { TelemetryOptions } from './telemetry-options';
import { recordToolSpanEvent } from './tool-span-events';
import { errorCodeOf, errorTypeOf, safeJson } from './telemetry-values';
import { countTokens, countToolEvent, recordToolDuration } from './run-tracker-metrics';
import { recordChatResponse, runFinishedAttributes, toolSpanAttributes } from './run-span-attributes';
import { callKey } from '../durable/rules/value-rules';
import { SpanClock, treeClock } from './span-clock';

/** What a tracker shares with every run of one telemetry. */
export interface TrackerShared {
  readonly api: typeof OtelApi;
  readonly tracer: Tracer;
  readonly instruments: TelemetryInstruments;
  readonly options: TelemetryOptions;
}

type ChildEvent = Extract<LlmAgentEvent, { type: 'agent_event' }>;

/**
 * Where the run span of a child run's tracker goes: under the agent tool call's span, named after the tool, on the
 * clock of its root run.
 */
interface ChildRunPlacement {
  readonly parent: Context;
  readonly agentName: string;
  readonly clock: SpanClock;
}

type TrackedCallEvent = Extract<LlmAgentEvent, { callId: string; toolName: string }>;
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
 *
 * The events of a child run an agent tool started (`agent_event`) go to a tracker of that child, whose
 * `invoke_agent` span is a child of the agent tool call's `execute_tool` span (named after the tool), and so on
 * down the tree: one traced root run traces its whole tree, with no context manager needed.
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
  /** The trackers of the child runs of this run's agent tool calls, by child run id. */
  private readonly children = new Map<string, RunTracker>();

  /** The clock of every span of this run's tree (see {@link treeClock}). */
  private readonly clock: SpanClock;

  constructor(
    private readonly shared: TrackerShared,
    private readonly placement?: ChildRunPlacement,
  ) {
    this.clock = placement?.clock ?? treeClock();
  }

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
        return this.finishRun(event);
      case 'budget_exhausted':
        return this.budgetExhausted(event);
      case 'budget_reserved':
      case 'guardrail_decided':
      case 'guardrail_tripped':
      case 'handoff':
        return;
      case 'agent_event':
        return this.onChildEvent(event);
      default:
        return this.onToolEvent(event);
    }
  }

  /** Contract attributes of a call with a validated request (from `onToolResult`). */
  onToolResult(outcome: ToolOutcome, descriptor: ToolDescriptor, callId: string, turn: number): void {
    const span = this.tools.get(callKey(turn, callId));
    if (span === undefined || !span.isRecording()) return;
    span.setAttribute(TELEMETRY_NAMES.sideEffect, descriptor.sideEffect);
    span.setAttribute(TELEMETRY_NAMES.idempotency, descriptor.idempotency);
    if (this.shared.options.recordContent === true) span.setAttribute(TELEMETRY_NAMES.toolResult, safeJson(outcome));
  }

  /** The projection report of a call (from `onToolOutputProjection`), on its span. */
  onProjection(report: ToolOutputProjectionReport, callId: string, turn: number): void {
    const span = this.tools.get(callKey(turn, callId));
    if (span === undefined || !span.isRecording()) return;
    span.setAttributes({
      [TELEMETRY_NAMES.projectionTruncated]: report.truncated,
      [TELEMETRY_NAMES.projectionOriginalBytes]: report.originalBytes,
      [TELEMETRY_NAMES.projectionProjectedBytes]: report.projectedBytes,
      [TELEMETRY_NAMES.projectionOriginalTokens]: report.originalTokens,
      [TELEMETRY_NAMES.projectionProjectedTokens]: report.projectedTokens,
    });
    if (report.trigger !== null) span.setAttribute(TELEMETRY_NAMES.projectionTrigger, report.trigger);
  }

  /** Ends every open span with an error status: the run threw or rejected. */
  fail(error: unknown): void {
    for (const child of this.children.values()) child.fail(error);
    this.children.clear();
    const type = errorTypeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    for (const span of [...this.tools.values(), this.chat, this.run]) {
      if (span === undefined) continue;
      span.setAttribute(TELEMETRY_NAMES.errorType, type);
      span.setStatus({ code: this.shared.api.SpanStatusCode.ERROR, message });
      if (error instanceof Error) span.recordException(error);
      span.end(this.clock());
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

  /**
   * An event of a child run (or of a run below it): to the tracker of the child the first call of its path started,
   * made at the child's `run_started` (a resumed child starts a new span) under that call's span.
   */
  private onChildEvent(event: ChildEvent): void {
    const [link, ...below] = event.calls;
    if (link === undefined) return;
    let child = this.children.get(link.childRunId);
    if (child === undefined || (below.length === 0 && event.event.type === 'run_started')) {
      if (this.closed) return;
      const { api } = this.shared;
      const call = this.tools.get(callKey(link.turn, link.callId));
      const parent = call === undefined ? this.parent() : api.trace.setSpan(this.parent(), call);
      child = new RunTracker(this.shared, { parent, agentName: link.toolName, clock: this.clock });
      this.children.set(link.childRunId, child);
    }
    child.onEvent(
      below.length === 0
        ? event.event
        : { ...event, runId: link.childRunId, agent: event.agent.slice(1), calls: below },
    );
  }

  private startRun(runId: string): void {
    const { api, tracer, options } = this.shared;
    const attributes: Attributes = {
      [TELEMETRY_NAMES.operationName]: 'invoke_agent',
      [TELEMETRY_NAMES.runId]: runId,
      [TELEMETRY_NAMES.conversationId]: runId,
    };
    const agentName = this.placement?.agentName ?? options.agentName;
    if (agentName !== undefined) attributes[TELEMETRY_NAMES.agentName] = agentName;
    const name = agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`;
    const parent = this.placement?.parent ?? api.context.active();
    this.run = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes, startTime: this.clock() }, parent);
    this.runContext = api.trace.setSpan(parent, this.run);
  }

  private startChat(step: number): void {
    const { api, tracer, options } = this.shared;
    const attributes: Attributes = { [TELEMETRY_NAMES.operationName]: 'chat', [TELEMETRY_NAMES.step]: step };
    if (options.requestModel !== undefined) attributes[TELEMETRY_NAMES.requestModel] = options.requestModel;
    if (options.providerName !== undefined) attributes[TELEMETRY_NAMES.providerName] = options.providerName;
    const name = options.requestModel === undefined ? 'chat' : `chat ${options.requestModel}`;
    this.chat?.end(this.clock());
    if (this.closed) return;
    this.chat = tracer.startSpan(
      name,
      { kind: api.SpanKind.CLIENT, attributes, startTime: this.clock() },
      this.parent(),
    );
  }

  private finishChat(response: ModelResponse): void {
    const span = this.chat;
    if (span === undefined) return;
    if (span.isRecording()) recordChatResponse(span, response, this.shared.options);
    countTokens(this.shared.instruments, response);
    span.end(this.clock());
    this.chat = undefined;
  }

  private finishRun(event: Extract<LlmAgentEvent, { type: 'run_finished' }>): void {
    const span = this.run;
    const now = this.clock();
    for (const tool of this.tools.values()) tool.end(now);
    this.chat?.end(now);
    this.closeRun();
    if (span === undefined) return;
    span.setAttribute(TELEMETRY_NAMES.stopReason, event.stopReason);
    span.setAttributes(runFinishedAttributes(event));
    span.end(now);
  }

  /** The limit that stopped the run, on its span. */
  private budgetExhausted(event: Extract<LlmAgentEvent, { type: 'budget_exhausted' }>): void {
    const span = this.run;
    if (span === undefined || !span.isRecording()) return;
    span.setAttribute(TELEMETRY_NAMES.budgetTripped, event.limit);
    if (event.key !== undefined) span.setAttribute(TELEMETRY_NAMES.budgetKey, event.key);
  }

  private onToolEvent(event: TrackedCallEvent): void {
    // Metrics are counted whether or not the trace is sampled; span events and attributes only on a recorded span.
    const { instruments } = this.shared;
    countToolEvent(instruments, event);
    const span = this.toolSpan(event);
    if (span === undefined) {
      if (event.type === 'tool_call_finished') recordToolDuration(instruments, event);
      instruments.lateEvents.add(1, {
        [TELEMETRY_NAMES.event]: event.type,
        [TELEMETRY_NAMES.toolName]: event.toolName,
      });
      return;
    }
    if (event.type === 'tool_call_finished') return this.finishTool(span, event);
    if (span.isRecording()) recordToolSpanEvent(span, event, this.shared.options.recordContent === true);
  }

  private finishTool(span: Span, event: FinishedEvent): void {
    recordToolDuration(this.shared.instruments, event);
    const errorType = event.outcome.ok ? undefined : errorCodeOf(event.outcome);
    const key = callKey(event.turn, event.callId);
    this.endedTools.add(key);
    if (!span.isRecording()) {
      this.tools.delete(key);
      span.end(this.clock());
      return;
    }
    span.setAttribute(TELEMETRY_NAMES.attempts, event.attempts);
    if (errorType !== undefined) {
      span.setAttribute(TELEMETRY_NAMES.errorType, errorType);
      span.setStatus({ code: this.shared.api.SpanStatusCode.ERROR, message: event.outcome.error?.message });
    }
    // The projection of this outcome is reported right after this event, in the same synchronous
    // step: the span ends a microtask later so it carries the report.
    queueMicrotask(() => {
      if (this.tools.get(key) !== span) return;
      this.tools.delete(key);
      span.end(this.clock());
    });
  }

  /**
   * The span of a call, started at its first event; `undefined` once the call's span (or the run's) has
   * ended, unless `tool_call_started` begins a new call under the same key.
   */
  private toolSpan(event: TrackedCallEvent): Span | undefined {
    const key = callKey(event.turn, event.callId);
    let span = this.tools.get(key);
    if (span === undefined) {
      if (this.closed || (this.endedTools.has(key) && event.type !== 'tool_call_started')) return undefined;
      this.endedTools.delete(key);
      const { api, tracer } = this.shared;
      const attributes = toolSpanAttributes(event);
      span = tracer.startSpan(
        `execute_tool ${event.toolName}`,
        { kind: api.SpanKind.INTERNAL, attributes, startTime: this.clock() },
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
