import { ChatMessage, ModelResponse } from '../model/model-types';
import { RunState } from './run-state';

/**
 * How many assistant messages the run's history holds (the turn of the last one), counted on from where
 * the last count stopped: each message is looked at once per run, not once per step.
 * @internal
 */
export function assistantMessagesOf(run: RunState): number {
  const messages = run.messages;
  let from = run.countedMessages ?? 0;
  let count = run.assistantMessages ?? 0;
  if (from > messages.length) from = count = 0;
  for (let index = from; index < messages.length; index++) if (messages[index].role === 'assistant') count++;
  run.countedMessages = messages.length;
  run.assistantMessages = count;
  return count;
}

/** The assistant message of a model answer; the provider's own content of the turn (e.g. thinking blocks) is stored with it, opaque, for a resume anywhere. @internal */
export function assistantMessageOf(response: ModelResponse): ChatMessage {
  const providerContent = response.providerContent;
  return providerContent === undefined
    ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
    : { role: 'assistant', content: response.text, toolCalls: response.toolCalls, providerContent };
}
