import type { FinishReason } from 'ai';
import { WuweError } from '../errors/wuwe-error';
import type { LlmAgentStreamEvent } from '../runner/stream/stream-events';
import type { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from '../runner/run-result';
import { reasoningOfResponse } from './reasoning-of-response';
import { approvalRequestChunks } from './approval-request-chunks';
import type { WuweUIMessageChunk } from './ui-message-types';
import type { ToUIMessageStreamOptions } from './ui-stream-options';

type FinishedCallEvent = Extract<LlmAgentStreamEvent, { type: 'tool_call_finished' }>;

/** A call this stream told (or, resumed, whose part the client has), by `turn:callId`. */
interface TrackedCall {
  readonly callId: string;
  readonly toolName: string;
  /** The call belongs to the continued turn: the client has its part; only its output is told. */
  readonly resumed: boolean;
  argumentText: string;
  finished: boolean;
}

const FINISH_REASONS: Readonly<Record<LlmAgentStopReason, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  refusal: 'content-filter',
  awaiting_approval: 'tool-calls',
  max_steps: 'other',
  aborted: 'other',
  budget_exhausted: 'other',
  stop_condition: 'stop',
  guardrail_tripped: 'content-filter',
  guardrail_rejected: 'content-filter',
  other: 'other',
};

/**
 * Tells the events of one run stream as UI message chunks, in order. Tool outputs are the projected Tool messages
 * the model saw (the `content` of `tool_call_finished`), never the raw outcome, told when each call finishes (its
 * input chunks come as the model streams them). @internal
 */
export class UIChunkTranslator {
  private readonly calls = new Map<string, TrackedCall>();
  private openStep: number | undefined;
  private openText: string | undefined;
  private parts = 0;
  private started = false;

  constructor(
    private readonly runId: string,
    private readonly options: ToUIMessageStreamOptions,
  ) {}

  /** The chunks of one event. */
  async chunksOf(event: LlmAgentStreamEvent): Promise<WuweUIMessageChunk[]> {
    const chunks = this.startChunks();
    switch (event.type) {
      case 'run_started':
        break;
      case 'text_delta':
        this.stepChunks(event.step, chunks);
        if (this.openText === undefined) {
          this.openText = this.partId('text');
          chunks.push({ type: 'text-start', id: this.openText });
        }
        chunks.push({ type: 'text-delta', id: this.openText, delta: event.text });
        break;
      case 'tool_call_started': {
        const resumed = this.options.continues?.turn === event.turn;
        this.calls.set(callKey(event.turn, event.callId), {
          callId: event.callId,
          toolName: event.toolName,
          resumed,
          argumentText: '',
          finished: false,
        });
        if (resumed) break;
        this.stepChunks(event.step, chunks);
        this.closeText(chunks);
        chunks.push({ type: 'tool-input-start', toolCallId: event.callId, toolName: event.toolName });
        break;
      }
      case 'tool_call_delta': {
        const call = this.calls.get(callKey(event.turn, event.callId));
        if (call === undefined) break;
        call.argumentText += event.argumentsDelta;
        if (!call.resumed)
          chunks.push({ type: 'tool-input-delta', toolCallId: call.callId, inputTextDelta: event.argumentsDelta });
        break;
      }
      case 'tool_call_finished': {
        const call = this.calls.get(callKey(event.turn, event.callId));
        if (call === undefined || call.finished) break;
        call.finished = true;
        if (!call.resumed) chunks.push(inputAvailable(call, inputOfText(call.argumentText)));
        chunks.push(this.outputChunk(event));
        break;
      }
      case 'step_finished': {
        this.closeText(chunks);
        const reasoning = reasoningOfResponse(event.response);
        if (reasoning.length > 0) this.stepChunks(event.step, chunks);
        for (const text of reasoning) {
          const id = this.partId('reasoning');
          chunks.push(
            { type: 'reasoning-start', id },
            { type: 'reasoning-delta', id, delta: text },
            { type: 'reasoning-end', id },
          );
        }
        if (this.openStep !== undefined) chunks.push({ type: 'finish-step' });
        this.openStep = undefined;
        break;
      }
      case 'run_finished':
        this.closeText(chunks);
        chunks.push(...(await this.resultChunks(event.result)));
        break;
      case 'agent_event':
        // A child run's event: the UI message is this run's; the agent tool call's outcome carries the child's answer.
        break;
    }
    return chunks;
  }

  /** The chunks that end a stream whose run failed: an `error` chunk (no `finish`: the message did not complete). */
  failureChunks(error: unknown, fallbackText = defaultErrorText(error)): WuweUIMessageChunk[] {
    const chunks = this.startChunks();
    this.closeText(chunks);
    if (this.openStep !== undefined) chunks.push({ type: 'finish-step' });
    this.openStep = undefined;
    const errorText = this.options.errorText?.(error) ?? fallbackText;
    chunks.push({ type: 'error', errorText });
    return chunks;
  }

  /** The inputs and approval requests of the calls the run waits on, then `finish`. */
  private async resultChunks(result: LlmAgentRunResult): Promise<WuweUIMessageChunk[]> {
    const chunks: WuweUIMessageChunk[] = [];
    const waiting: ToolCallResult[] = [];
    for (const call of result.toolCalls) {
      const tracked = this.calls.get(callKey(call.turn, call.callId));
      if (tracked === undefined) continue;
      if (call.awaitingApproval === true) {
        waiting.push(call);
        if (!tracked.resumed) chunks.push(inputAvailable(tracked, call.arguments ?? inputOfText(tracked.argumentText)));
        continue;
      }
    }
    chunks.push(...(await approvalRequestChunks(this.runId, waiting, this.options.approvals)));
    const { stopReason, usage, steps } = result;
    chunks.push({
      type: 'finish',
      finishReason: FINISH_REASONS[stopReason] ?? 'other',
      messageMetadata: { runId: this.runId, stopReason, usage, steps },
    });
    return chunks;
  }

  /** The output chunk of a finished call: its projected Tool message, as the model saw it. */
  private outputChunk(call: FinishedCallEvent): WuweUIMessageChunk {
    if (call.outcome.ok) return { type: 'tool-output-available', toolCallId: call.callId, output: call.content };
    const denied =
      call.outcome.error.code === 'approval_denied' &&
      this.options.continues?.turn === call.turn &&
      this.options.continues.decisions.some((decision) => decision.callId === call.callId && !decision.approved);
    if (denied) return { type: 'tool-output-denied', toolCallId: call.callId };
    return { type: 'tool-output-error', toolCallId: call.callId, errorText: call.content };
  }

  private startChunks(): WuweUIMessageChunk[] {
    if (this.started) return [];
    this.started = true;
    const messageId = this.options.continues === undefined ? this.options.messageId : undefined;
    return [
      { type: 'start', ...(messageId === undefined ? {} : { messageId }), messageMetadata: { runId: this.runId } },
    ];
  }

  /** Opens step `step` (a `start-step` chunk) when it is not the open one. */
  private stepChunks(step: number, chunks: WuweUIMessageChunk[]): void {
    if (this.openStep === step) return;
    this.closeText(chunks);
    if (this.openStep !== undefined) chunks.push({ type: 'finish-step' });
    this.openStep = step;
    chunks.push({ type: 'start-step' });
  }

  private closeText(chunks: WuweUIMessageChunk[]): void {
    if (this.openText === undefined) return;
    chunks.push({ type: 'text-end', id: this.openText });
    this.openText = undefined;
  }

  private partId(kind: string): string {
    this.parts += 1;
    return `${this.runId}:${kind}:${this.parts}`;
  }
}

function callKey(turn: number, callId: string): string {
  return `${turn}:${callId}`;
}

function inputAvailable(call: TrackedCall, input: unknown): WuweUIMessageChunk {
  return { type: 'tool-input-available', toolCallId: call.callId, toolName: call.toolName, input };
}

/** The decoded argument text of a call; text that is not JSON stays text (the call's outcome says why it failed). */
function inputOfText(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function defaultErrorText(error: unknown): string {
  return WuweError.isInstance(error) ? `the run failed: ${error.name} (${error.code})` : 'the run failed';
}
