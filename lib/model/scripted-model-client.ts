import { WuweError } from '../errors/wuwe-error';
import { JsonObject } from '../outcome/json-value';
import { BaseModelClient } from './base-model-client';
import {
  ModelUsage,
  ChatMessage,
  ModelRequest,
  ModelResponse,
  ModelResponseFormat,
  ModelStopReason,
  ModelToolCall,
  ModelToolChoice,
} from './model-types';
import { ModelStreamEvent, StreamingModelStepper } from './model-stream';
import { hasErrorMarker } from '../errors/error-marker';

/** One scripted model turn: text, tool calls, or both. */
export interface ScriptedReply {
  readonly text?: string;
  /** Tool calls; a missing id becomes `call_<step>_<index>`. Arguments as text or object. */
  readonly toolCalls?: readonly {
    readonly id?: string;
    readonly name: string;
    readonly arguments?: string | JsonObject;
  }[];
  /** @default 'tool_use' with tool calls, else 'end_turn' */
  readonly stopReason?: ModelStopReason;
  readonly usage?: ModelUsage;
}

/** A scripted turn: a fixed reply, or a function of the conversation so far. */
export type ScriptedTurn =
  ScriptedReply | ((messages: readonly ChatMessage[], request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>);

const SCRIPTED_MODEL_ERROR_MARKER = Symbol.for('wuwe.error.ScriptedModelError');

/** The script ran out of turns, or the request was aborted. */
export class ScriptedModelError extends WuweError<'script_exhausted' | 'aborted'> {
  private readonly [SCRIPTED_MODEL_ERROR_MARKER] = true;

  /** True when `value` is a ScriptedModelError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ScriptedModelError {
    return hasErrorMarker(value, SCRIPTED_MODEL_ERROR_MARKER);
  }

  constructor(code: 'script_exhausted' | 'aborted', message: string) {
    super(code, message);
  }
}

/** Options of {@link ScriptedModelClient}. */
export interface ScriptedModelClientOptions {
  /** @default 'scripted' */
  readonly modelName?: string;
  /**
   * What to do after the last turn: throw, answer with empty text, or start the script again from
   * its first turn (for load tests that reuse one client). @default 'error'
   */
  readonly whenExhausted?: 'error' | 'end_turn' | 'repeat';
  /** Keep every request in `requests`. Turn it off for long load tests. @default true */
  readonly recordRequests?: boolean;
  /** `streamStep`: how many deltas each text and each tool call's argument text is split into (at most). @default 3 */
  readonly streamDeltas?: number;
  /**
   * `streamStep`: wait for the next macrotask before each delta, as a network stream would, so a
   * consumer (or an abort) can act between deltas. Turn it off to measure the runner alone. @default true
   */
  readonly streamPauses?: boolean;
  /**
   * Act as a model with native structured output: `supportsResponseFormat` says yes, so a run with
   * `output` (mode `auto` or `native`) sends `request.responseFormat` (see `requests`) and takes the
   * scripted final text as the JSON answer. Off, such a run gets the final-answer tool. @default false
   */
  readonly supportsResponseFormat?: boolean;
}

/**
 * A deterministic model for offline runs and tests. It answers scripted turns in order and records
 * every request it got (`requests`). It honours `request.signal` like a real client: an abort while
 * a turn function is still pending rejects the step at once (`aborted`). `streamStep` streams the same
 * reply: its text and each tool call's argument text split into a few deltas (`streamDeltas`), then
 * the response; an abort between deltas rejects with `aborted`.
 */
export class ScriptedModelClient extends BaseModelClient implements StreamingModelStepper {
  readonly modelName: string;
  /** Every request received, in order. */
  readonly requests: ModelRequest[] = [];
  private position = 0;

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    private readonly options: ScriptedModelClientOptions = {},
  ) {
    super();
    this.modelName = options.modelName ?? 'scripted';
  }

  /** The `supportsResponseFormat` option: whether runs with `output` ask this model for native structured output. */
  supportsResponseFormat(format: ModelResponseFormat): boolean {
    return this.options.supportsResponseFormat === true && format.type === 'json_schema';
  }

  /** Every tool choice: it is kept with the request (see `requests`); the script decides what comes back. */
  supportsToolChoice(_choice: ModelToolChoice): boolean {
    return true;
  }

  step(request: ModelRequest): Promise<ModelResponse> {
    try {
      if (request.signal.aborted) throw new ScriptedModelError('aborted', 'the request was aborted');
      if (this.options.recordRequests !== false) this.requests.push({ ...request, messages: [...request.messages] });
      if (this.options.whenExhausted === 'repeat' && this.position >= this.turns.length) this.position = 0;
      const turn = this.turns[this.position];
      const stepIndex = ++this.position;
      if (turn === undefined) {
        if (this.options.whenExhausted === 'end_turn')
          return Promise.resolve({
            text: '',
            toolCalls: [],
            stopReason: 'end_turn',
            usage: { inputTokens: 0, outputTokens: 0 },
          });
        throw new ScriptedModelError(
          'script_exhausted',
          `the script has ${this.turns.length} turns and a request asked for turn ${stepIndex}`,
        );
      }
      // A scripted reply answers without an async frame; a turn function is awaited (and raced against the signal).
      if (typeof turn !== 'function') return Promise.resolve(this.responseOf(turn, stepIndex));
      return Promise.resolve(untilAborted(turn(request.messages, request), request.signal)).then((reply) =>
        this.responseOf(reply, stepIndex),
      );
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
      return Promise.reject(error);
    }
  }

  /** The response of a scripted reply: calls without an id get `call_<step>_<index>`. */
  private responseOf(reply: ScriptedReply, stepIndex: number): ModelResponse {
    const scripted = reply.toolCalls ?? [];
    const toolCalls: ModelToolCall[] = [];
    for (let index = 0; index < scripted.length; index++) {
      const call = scripted[index];
      toolCalls.push({ id: call.id ?? `call_${stepIndex}_${index}`, name: call.name, arguments: call.arguments ?? {} });
    }
    return {
      text: reply.text ?? '',
      toolCalls,
      stopReason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
      usage: reply.usage ?? { inputTokens: 0, outputTokens: 0 },
      model: this.modelName,
    };
  }

  /**
   * The next scripted turn as a stream: text deltas, then each call started and its argument deltas, then the response.
   */
  async *streamStep(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const response = await this.step(request);
    const pieces = Math.max(1, Math.floor(this.options.streamDeltas ?? 3));
    const pause = this.options.streamPauses !== false;
    const deltas: ModelStreamEvent[] = splitText(response.text, pieces).map((text) => ({ type: 'text_delta', text }));
    response.toolCalls.forEach((call, index) => {
      deltas.push({ type: 'tool_call_started', index, id: call.id, name: call.name });
      const argumentText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      for (const argumentsDelta of splitText(argumentText, pieces))
        deltas.push({ type: 'tool_call_delta', index, argumentsDelta });
    });
    for (const delta of deltas) {
      if (pause) await new Promise<void>((resolve) => setImmediate(resolve));
      if (request.signal.aborted) throw new ScriptedModelError('aborted', 'the request was aborted');
      yield delta;
    }
    yield { type: 'response', response };
  }
}

/** `text` in at most `pieces` parts of about equal length (none for an empty text). */
function splitText(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.ceil(text.length / pieces);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

/** The reply, or a rejection with `aborted` as soon as the signal aborts, whichever comes first. */
function untilAborted(
  reply: ScriptedReply | Promise<ScriptedReply>,
  signal: AbortSignal,
): ScriptedReply | Promise<ScriptedReply> {
  if (!(reply instanceof Promise)) return reply;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new ScriptedModelError('aborted', 'the request was aborted'));
    if (signal.aborted) {
      // Given up at once, the reply is still observed: its later rejection must not end the process.
      reply.then(undefined, () => undefined);
      return onAbort();
    }
    signal.addEventListener('abort', onAbort, { once: true });
    reply.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}
