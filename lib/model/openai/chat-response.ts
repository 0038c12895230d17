import { ModelResponse, ModelStopReason, ModelToolCall, ModelUsage } from '../model-types';
import { malformed } from './map-api-error';
import { modelToolCall } from './map-tools';
import { describe, isRecord, mapUsage, requestIdOf } from './json-shape';

/** What one Chat Completions answer says, whole or streamed, before it becomes a {@link ModelResponse}. */
export interface ChatTurn {
  readonly content: string;
  /** The model's refusal message, when it refused. */
  readonly refusal: string | undefined;
  readonly toolCalls: readonly ModelToolCall[];
  readonly finishReason: unknown;
  readonly usage: ModelUsage;
  readonly model: string | undefined;
}

/**
 * Maps a Chat Completions `finish_reason`: `stop` is `end_turn` (`tool_use` when the message carries tool
 * calls, as some compatible servers answer), `tool_calls` and `function_call` are `tool_use`, `length` is
 * `max_tokens`, `content_filter` is `refusal`, anything else `other`. A message with a `refusal` is `refusal`.
 */
export function chatStopReason(finishReason: unknown, hasToolCalls: boolean, refused: boolean): ModelStopReason {
  if (refused) return 'refusal';
  switch (finishReason) {
    case 'stop':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

/** The {@link ModelResponse} of a Chat Completions answer; a refusal's message is its text. */
export function chatResponse(turn: ChatTurn): ModelResponse {
  const refused = turn.refusal !== undefined && turn.refusal.length > 0;
  return {
    text: refused && turn.content.length === 0 ? turn.refusal : turn.content,
    toolCalls: turn.toolCalls,
    stopReason: chatStopReason(turn.finishReason, turn.toolCalls.length > 0, refused),
    usage: turn.usage,
    ...(turn.model !== undefined ? { model: turn.model } : {}),
  };
}

/**
 * Checks a Chat Completions response body and maps its first choice: `content` is the text, each
 * `function` tool call becomes a {@link ModelToolCall} with its argument text, in order (marked
 * `nullsAreAbsent` when its tool was sent strict); `usage.prompt_tokens`/`completion_tokens` are the usage.
 *
 * @throws {@link ModelApiError} `malformed_response` when the body is not a well-formed completion.
 */
export function fromChatCompletion(body: unknown, strictTools: ReadonlySet<string>): ModelResponse {
  const requestId = requestIdOf(body);
  const fail = (detail: string): never => {
    throw malformed(detail, undefined, requestId);
  };
  if (!isRecord(body)) return fail(`the response body is not a JSON object (got ${describe(body)})`);
  if (!Array.isArray(body.choices) || body.choices.length === 0) return fail('the response has no `choices`');
  const choice: unknown = body.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return fail('the first choice has no `message` object');
  const { content, refusal, tool_calls: rawCalls } = choice.message;
  if (content !== null && content !== undefined && typeof content !== 'string')
    fail('the message `content` is not a string');
  if (refusal !== null && refusal !== undefined && typeof refusal !== 'string')
    fail('the message `refusal` is not a string');
  if (rawCalls !== null && rawCalls !== undefined && !Array.isArray(rawCalls))
    fail('the message `tool_calls` is not an array');
  const toolCalls = ((rawCalls as unknown[] | null | undefined) ?? []).flatMap((call, index): ModelToolCall[] => {
    if (!isRecord(call)) return fail(`tool call ${index} is not an object`);
    if (call.type !== undefined && call.type !== 'function') return [];
    const fn = call.function;
    if (typeof call.id !== 'string' || call.id.length === 0) return fail(`tool call ${index} has no \`id\``);
    if (!isRecord(fn) || typeof fn.name !== 'string' || fn.name.length === 0)
      return fail(`tool call ${index} has no \`function.name\``);
    if (typeof fn.arguments !== 'string') return fail(`tool call ${index} has no \`function.arguments\` text`);
    return [modelToolCall(call.id, fn.name, fn.arguments, strictTools)];
  });
  return chatResponse({
    content: typeof content === 'string' ? content : '',
    refusal: typeof refusal === 'string' ? refusal : undefined,
    toolCalls,
    finishReason: choice.finish_reason,
    usage: mapUsage(body.usage, 'prompt_tokens', 'completion_tokens', requestId),
    model: typeof body.model === 'string' ? body.model : undefined,
  });
}
