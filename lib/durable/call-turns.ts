import { ChatMessage } from '../model/model-types';

/**
 * The turn of each call id in a conversation: the ordinal (from 1) of the first assistant message that carries
 * it. A version-1 record bound a call id to its first call, so this is the turn its stored rows belong to.
 */
export function firstTurnOfCallIds(messages: readonly ChatMessage[]): ReadonlyMap<string, number> {
  const turns = new Map<string, number>();
  let turn = 0;
  for (const message of messages) {
    if (message?.role !== 'assistant') continue;
    turn++;
    for (const call of Array.isArray(message.toolCalls) ? message.toolCalls : [])
      if (!turns.has(call?.id)) turns.set(call?.id, turn);
  }
  return turns;
}
