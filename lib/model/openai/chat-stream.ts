import { ModelStreamEvent } from '../model-stream';
import { ModelResponse, ModelUsage } from '../model-types';
import { chatResponse } from './chat-response';
import { isRecord, mapUsage } from './json-shape';
import { malformed } from './map-api-error';
import { modelToolCall } from './map-tools';

interface ToolCallSlot {
  /** Position in the response's tool calls (order of first appearance). */
  readonly position: number;
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

/**
 * Reads the chunks of a streamed Chat Completion (`chat.completion.chunk`) into {@link ModelStreamEvent}s
 * and, at the end, the whole {@link ModelResponse}.
 *
 * Text and refusal pieces are `text_delta`s. Tool calls arrive by `index`, possibly several at once
 * (parallel calls): a call is `tool_call_started` once its `id` and `name` are known, and each piece of
 * its argument text is a `tool_call_delta` (pieces that came before the start are sent with it). A
 * piece at an index whose call already has an id, carrying another id, begins a new call (some
 * compatible servers send every call at index 0): the earlier call keeps its id and arguments, and
 * later pieces without an id belong to the new one. The last chunk's `usage` (asked for with
 * `stream_options.include_usage`) is the usage.
 */
export class ChatStreamReader {
  private content = '';
  private refusal = '';
  private finishReason: unknown;
  private usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  private model: string | undefined;
  /** Every call of the answer, in order of first appearance. */
  private readonly calls: ToolCallSlot[] = [];
  /** The call that pieces at an `index` belong to now. */
  private readonly slots = new Map<number, ToolCallSlot>();

  constructor(private readonly strictTools: ReadonlySet<string>) {}

  /**
   * The events of one chunk.
   * @throws {@link ModelApiError} `malformed_response` when the chunk is not a completion chunk.
   */
  read(chunk: unknown): ModelStreamEvent[] {
    if (!isRecord(chunk)) throw malformed('a stream chunk is not a JSON object');
    if (typeof chunk.model === 'string' && chunk.model.length > 0) this.model = chunk.model;
    if (chunk.usage !== undefined && chunk.usage !== null)
      this.usage = mapUsage(chunk.usage, 'prompt_tokens', 'completion_tokens');
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return [];
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!isRecord(delta)) return [];
    const events: ModelStreamEvent[] = [];
    for (const [field, piece] of [
      ['content', delta.content],
      ['refusal', delta.refusal],
    ] as const) {
      if (typeof piece !== 'string' || piece.length === 0) continue;
      if (field === 'content') this.content += piece;
      else this.refusal += piece;
      events.push({ type: 'text_delta', text: piece });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as unknown[]) events.push(...this.readToolCall(call));
    }
    return events;
  }

  private readToolCall(call: unknown): ModelStreamEvent[] {
    if (!isRecord(call) || typeof call.index !== 'number') throw malformed('a streamed tool call has no `index`');
    const id = typeof call.id === 'string' ? call.id : '';
    let slot = this.slots.get(call.index);
    if (slot === undefined || (id.length > 0 && slot.id.length > 0 && id !== slot.id)) {
      slot = { position: this.calls.length, id: '', name: '', arguments: '', started: false };
      this.calls.push(slot);
      this.slots.set(call.index, slot);
    }
    if (id.length > 0) slot.id = id;
    const fn = isRecord(call.function) ? call.function : {};
    if (typeof fn.name === 'string' && fn.name.length > 0 && slot.name.length === 0) slot.name = fn.name;
    const piece = typeof fn.arguments === 'string' ? fn.arguments : '';
    slot.arguments += piece;
    if (slot.started)
      return piece.length > 0 ? [{ type: 'tool_call_delta', index: slot.position, argumentsDelta: piece }] : [];
    if (slot.id.length === 0 || slot.name.length === 0) return [];
    slot.started = true;
    const events: ModelStreamEvent[] = [
      { type: 'tool_call_started', index: slot.position, id: slot.id, name: slot.name },
    ];
    if (slot.arguments.length > 0)
      events.push({ type: 'tool_call_delta', index: slot.position, argumentsDelta: slot.arguments });
    return events;
  }

  /**
   * The whole response, once the stream has ended.
   * @throws {@link ModelApiError} `malformed_response` when the stream ended before a `finish_reason`, or
   * a tool call never got its id or name.
   */
  finish(): ModelResponse {
    if (this.finishReason === undefined)
      throw malformed('the stream ended before the answer was finished (no `finish_reason`)');
    const slots = this.calls;
    const unnamed = slots.find((slot) => !slot.started);
    if (unnamed !== undefined)
      throw malformed(`streamed tool call ${unnamed.position} has no \`id\` or \`function.name\``);
    return chatResponse({
      content: this.content,
      refusal: this.refusal.length > 0 ? this.refusal : undefined,
      toolCalls: slots.map((slot) => modelToolCall(slot.id, slot.name, slot.arguments, this.strictTools)),
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
    });
  }
}
