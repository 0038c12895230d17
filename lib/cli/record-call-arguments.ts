import { AgentRunRecord } from '../durable/agent-run-record';
import { canonicalArgumentsSha256 } from '../durable/canonical-arguments';
import { ChatMessage, ModelToolCall } from '../model/model-types';
import { JsonValue } from '../outcome/json-value';

/** Every call the model asked for, in order, with its turn (the ordinal of the assistant message carrying it). */
export function modelCalls(
  messages: readonly ChatMessage[],
): { readonly turn: number; readonly call: ModelToolCall }[] {
  const calls: { turn: number; call: ModelToolCall }[] = [];
  let turn = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    turn++;
    for (const call of message.toolCalls) calls.push({ turn, call });
  }
  return calls;
}

/**
 * The arguments of a call as recorded in the run (store record first, then the model's message), decoded; `turn` picks
 * among calls that share the id.
 */
export function argumentsOf(record: AgentRunRecord, callId: string, turn?: number): JsonValue | undefined {
  const stored = record.toolCalls.find((call) => call.callId === callId && (turn === undefined || call.turn === turn));
  if (stored) return stored.arguments;
  const call = modelCalls(record.messages).find(
    (candidate) => candidate.call.id === callId && (turn === undefined || candidate.turn === turn),
  )?.call;
  if (!call) return undefined;
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments) as JsonValue;
  } catch {
    return call.arguments;
  }
}

/** The canonical SHA-256 of `value`, or undefined when it has no canonical JSON form. */
export function hashOf(value: JsonValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return canonicalArgumentsSha256(value);
  } catch {
    return undefined;
  }
}
