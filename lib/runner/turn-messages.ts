import { mergeOwn } from '../outcome/merge-own';
import { AgentRunRecord } from '../durable/agent-run-record';
import { ChatMessage, ModelResponse } from '../model/model-types';

/** How many assistant messages a history holds: the turn of the last one. @internal */
export function assistantMessagesOf(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (const message of messages) if (message.role === 'assistant') count++;
  return count;
}

/**
 * The assistant message of a model answer; the provider's own content of the turn (e.g. thinking blocks) is stored with
 * it, opaque, for a resume anywhere. @internal
 */
export function assistantMessageOf(response: ModelResponse, withUsage = false): ChatMessage {
  const providerContent = response.providerContent;
  const base: ChatMessage =
    providerContent === undefined
      ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
      : { role: 'assistant', content: response.text, toolCalls: response.toolCalls, providerContent };
  const message: ChatMessage = withUsage ? mergeOwn(base, { usage: response.usage }) : base;
  MODEL_RESPONSES.add(message);
  return message;
}

/**
 * The assistant messages that are model responses: made by {@link assistantMessageOf}, or read from a record
 * that says so ({@link messagesOfRecord}). Only their tool calls may run; a caller cannot add to it. @internal
 */
const MODEL_RESPONSES = new WeakSet<ChatMessage>();

/**
 * True when `message` is a model response (see {@link MODEL_RESPONSES}): recorded with origin `model`, its calls may
 * run on a resume. @internal
 */
export function isModelResponse(message: ChatMessage): boolean {
  return MODEL_RESPONSES.has(message);
}

/**
 * The messages of a stored record, as a run goes on with them: an assistant message the record holds as a
 * model response (origin `model`, or `unrecorded` in a record older than origins) is one again; any other
 * loses the provider content it carries, which only a model response of a record may replay to a provider.
 * @internal
 */
export function messagesOfRecord(record: Pick<AgentRunRecord, 'messages' | 'messageOrigins'>): ChatMessage[] {
  return record.messages.map((message, index) => {
    if (message.role !== 'assistant') return message;
    const origin = record.messageOrigins?.[index] ?? 'unrecorded';
    if (origin === 'other') return withoutProviderContent(message);
    MODEL_RESPONSES.add(message);
    return message;
  });
}

/** An assistant message without its `providerContent` (the message itself when it has none). @internal */
export function withoutProviderContent(message: Extract<ChatMessage, { role: 'assistant' }>): ChatMessage {
  if (message.providerContent === undefined) return message;
  const { providerContent: _dropped, ...rest } = message;
  return rest;
}
