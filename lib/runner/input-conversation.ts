import { TOOL_NAME_PATTERN } from '../contract/llm-tool';
import { ChatMessage } from '../model/model-types';

/** The keys a tool call of a caller's assistant message may have. */
const TOOL_CALL_KEYS = new Set(['id', 'name', 'arguments', 'nullsAreAbsent']);

/**
 * The problem with one tool call of a caller's assistant message, or `undefined`: a plain object with a
 * non-empty string `id`, a `name` matching {@link TOOL_NAME_PATTERN}, and `arguments` as JSON text or a
 * plain object; no other keys (a wire shape such as `{ function: {...} }` is refused).
 */
export function toolCallProblem(call: unknown): string | undefined {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return 'a tool call must be an object';
  const prototype = Object.getPrototypeOf(call);
  if (prototype !== Object.prototype && prototype !== null) return 'a tool call must be a plain object';
  const { id, name, arguments: args } = call as Record<string, unknown>;
  const unknown = Object.keys(call).find((key) => !TOOL_CALL_KEYS.has(key));
  if (unknown !== undefined) return `a tool call has an unknown key ${JSON.stringify(unknown)} (id, name, arguments)`;
  if (typeof id !== 'string' || id.length === 0) return 'a tool call needs a non-empty string `id`';
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name))
    return `tool call '${id}' needs a \`name\` matching ${TOOL_NAME_PATTERN.source}`;
  const argumentsOk = typeof args === 'string' || (typeof args === 'object' && args !== null && !Array.isArray(args));
  return argumentsOk ? undefined : `tool call '${id}' needs \`arguments\` as JSON text or an object`;
}

/**
 * The problem with how a caller's messages (each well formed on its own) fit together, or `undefined`. Every
 * Tool message answers a call of the assistant message it follows (only Tool messages between them), once, with
 * that call's tool name; the call ids of one assistant message are distinct; only the last assistant message
 * may leave calls without a Tool message (the runner answers those `not_executed`, never runs them).
 */
export function conversationProblem(messages: readonly ChatMessage[]): string | undefined {
  let open = new Map<string, string>();
  let turnIndex = -1;
  let inTurn = false;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant') {
      if (open.size > 0)
        return `message ${index}: message ${turnIndex} left calls without a Tool message (${[...open.keys()].join(', ')}); only the last assistant message may`;
      open = new Map();
      for (const call of message.toolCalls) {
        if (open.has(call.id)) return `message ${index}: two tool calls have the id '${call.id}'`;
        open.set(call.id, call.name);
      }
      turnIndex = index;
      inTurn = true;
    } else if (message.role === 'tool') {
      const name = inTurn ? open.get(message.toolCallId) : undefined;
      if (name === undefined)
        return `message ${index}: the Tool message for '${message.toolCallId}' answers no open call of the assistant message right before it`;
      if (name !== message.toolName)
        return `message ${index}: the Tool message for '${message.toolCallId}' names tool '${message.toolName}', the call '${name}'`;
      open.delete(message.toolCallId);
    } else {
      inTurn = false;
    }
  }
  return undefined;
}
